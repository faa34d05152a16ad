/// The byte values the CSV tokenizer and writer compare against.
enum ASCII {
    static let quote: UInt8 = 0x22
    static let carriageReturn: UInt8 = 0x0D
    static let lineFeed: UInt8 = 0x0A
    static let comma: UInt8 = 0x2C
    static let apostrophe: UInt8 = 0x27
}
