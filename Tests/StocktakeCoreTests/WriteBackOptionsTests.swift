import Testing

@testable import StocktakeCore

@Suite struct WriteBackOptionsTests {
    @Test func defaultsNormalizeAndFillButNeverOverwriteOrAdd() {
        let options = WriteBackOptions()
        #expect(options.normalize)
        #expect(options.fill)
        #expect(!options.overwrite)
        #expect(!options.addUnrecorded)
        #expect(options.fields == nil)
    }

    @Test func withoutFieldsEveryMappedColumnMayBeWritten() {
        let options = WriteBackOptions()
        #expect(options.allows(.field(.room)))
        #expect(options.allows(.field(.vtTag)))
        #expect(options.allows(.position))
        #expect(!options.allows(.ignored))
    }

    @Test func fieldsRestrictWhatMayBeWritten() {
        let options = WriteBackOptions(fields: [.room, .latitude])
        #expect(options.allows(.field(.room)))
        #expect(!options.allows(.field(.model)))
        #expect(options.allows(.field(.latitude)))
        // A GPS column holds both coordinates, so both must be allowed.
        #expect(!options.allows(.position))
        #expect(WriteBackOptions(fields: [.latitude, .longitude]).allows(.position))
    }
}
