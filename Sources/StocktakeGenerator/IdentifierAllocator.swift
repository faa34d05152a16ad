/// Hands out unique random identifiers: VT tags, CNS numbers, serial numbers and MAC addresses.
///
/// Central tags are drawn first. Tags drawn later for sources other than central (unrecorded tags, typos) keep
/// clear of every central tag by more than one edit, so that no accidental `POSSIBLE_TYPO` appears.
struct IdentifierAllocator {
    /// The number of digits of a tag.
    let tagDigits: Int
    /// The number of digits of a CNS number.
    let cnsDigits: Int
    private var usedTags: Set<Int> = []
    private var centralTags: Set<Int> = []
    private var usedCNS: Set<Int> = []
    private var usedSerials: Set<String> = []
    private var usedMACs: Set<UInt64> = []
    private let tagSpace: Int
    private let cnsSpace: Int

    /// Vendor prefixes of the access points' MAC addresses.
    private static let vendorPrefixes: [UInt64] = [0x000B86, 0x204C03, 0x94B40F, 0xB45D50, 0xD0D3E0, 0x186472]
    /// First letters of the serial numbers, by factory.
    private static let serialPrefixes = ["CN", "SG", "TW", "CN", "CN"]
    /// Characters of serial numbers after the prefix.
    private static let serialCharacters = Array("ABCDEFGHJKLMNPQRSTUVWXYZ0123456789")

    init(tagDigits: Int, cnsDigits: Int) {
        self.tagDigits = tagDigits
        self.cnsDigits = cnsDigits
        tagSpace = Self.power(ofTen: tagDigits)
        cnsSpace = Self.power(ofTen: cnsDigits)
    }

    /// A new central tag. Zero is never used, so a tag is never all zeros.
    mutating func centralTag(random: inout SeededRandom) -> Int {
        while true {
            let tag = random.integer(in: 1...(tagSpace - 1))
            if usedTags.insert(tag).inserted {
                centralTags.insert(tag)
                return tag
            }
        }
    }

    /// A new tag for a source other than central, more than one edit away from every central tag.
    mutating func outsideTag(random: inout SeededRandom) -> Int {
        while true {
            let tag = random.integer(in: 1...(tagSpace - 1))
            if !usedTags.contains(tag), neighbors(of: tag).allSatisfy({ !centralTags.contains($0) }) {
                usedTags.insert(tag)
                return tag
            }
        }
    }

    /// A new tag one edit (a changed digit or two swapped adjacent digits) from `target` and from no other
    /// central tag, with a description of the edit; `nil` when every such tag is taken or too close to another.
    mutating func typo(of target: Int, random: inout SeededRandom) -> (tag: Int, edit: String)? {
        var candidates = editsOf(target)
        random.shuffle(&candidates)
        for candidate in candidates where candidate.tag != 0 && !usedTags.contains(candidate.tag) {
            let close = neighbors(of: candidate.tag).filter { centralTags.contains($0) }
            if close == [target] {
                usedTags.insert(candidate.tag)
                return candidate
            }
        }
        return nil
    }

    /// A new CNS number.
    mutating func cns(random: inout SeededRandom) -> Int {
        while true {
            let cns = random.integer(in: 1...(cnsSpace - 1))
            if usedCNS.insert(cns).inserted {
                return cns
            }
        }
    }

    /// A new serial number: ten upper-case letters and digits starting with a factory prefix.
    mutating func serial(random: inout SeededRandom) -> String {
        while true {
            var serial = random.element(of: Self.serialPrefixes)
            for _ in 0..<8 {
                serial.append(random.element(of: Self.serialCharacters))
            }
            if usedSerials.insert(serial).inserted {
                return serial
            }
        }
    }

    /// A new MAC address with one of the vendor prefixes; its last octet is never 00 or ff.
    mutating func mac(random: inout SeededRandom) -> UInt64 {
        while true {
            let prefix = random.element(of: Self.vendorPrefixes)
            let device = UInt64(random.integer(in: 0x000001...0xFFFFFE))
            let mac = (prefix << 24) | device
            if device & 0xFF != 0, device & 0xFF != 0xFF, usedMACs.insert(mac).inserted {
                return mac
            }
        }
    }

    /// Every tag one edit from `tag`: each digit changed, and each pair of different adjacent digits swapped.
    func neighbors(of tag: Int) -> [Int] {
        editsOf(tag).map(\.tag)
    }

    private func editsOf(_ tag: Int) -> [(tag: Int, edit: String)] {
        let digits = Array(CanonicalForm.tag(tag, digits: tagDigits)).map { Int(String($0))! }
        var result: [(tag: Int, edit: String)] = []
        for position in digits.indices {
            for replacement in 0...9 where replacement != digits[position] {
                var changed = digits
                changed[position] = replacement
                result.append(
                    (Self.number(changed), "digit \(position + 1) changed from \(digits[position]) to \(replacement)"))
            }
            if position + 1 < digits.count, digits[position] != digits[position + 1] {
                var swapped = digits
                swapped.swapAt(position, position + 1)
                result.append((Self.number(swapped), "digits \(position + 1) and \(position + 2) swapped"))
            }
        }
        return result
    }

    private static func number(_ digits: [Int]) -> Int {
        digits.reduce(0) { $0 * 10 + $1 }
    }

    private static func power(ofTen exponent: Int) -> Int {
        (0..<exponent).reduce(1) { result, _ in result * 10 }
    }
}
