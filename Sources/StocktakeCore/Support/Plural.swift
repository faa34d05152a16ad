/// "1 error", "2 errors": a count with its noun, for messages people read.
public func counted(_ count: Int, _ singular: String, _ plural: String? = nil) -> String {
    "\(grouped(count)) " + (count == 1 ? singular : plural ?? singular + "s")
}

/// A whole number with thousands separators, as people read it in messages: "2,970", "3,000,000", "-1,024".
public func grouped(_ number: Int) -> String {
    let digits = String(number.magnitude)
    var text = ""
    for (index, digit) in digits.enumerated() {
        if index > 0 && (digits.count - index) % 3 == 0 { text.append(",") }
        text.append(digit)
    }
    return number < 0 ? "-" + text : text
}
