/// "1 error", "2 errors": a count with its noun, for messages people read.
public func counted(_ count: Int, _ singular: String, _ plural: String? = nil) -> String {
    "\(count) " + (count == 1 ? singular : plural ?? singular + "s")
}
