import StocktakeJob
import Testing

@Suite struct AccountNameTests {
    @Test(arguments: ["vt-nis", "acme_corp", "Campus2", "a.b"])
    func acceptsPlainNames(text: String) {
        #expect(AccountName(text)?.text == text)
    }

    @Test(arguments: [
        ("", "is empty"), ("..", "starts with a dot (hidden names and .. are not accounts)"),
        (".hidden", "starts with a dot (hidden names and .. are not accounts)"), ("a/b", "contains a slash"),
        ("a b", "may only hold letters, digits, '-', '_' and '.'"),
    ])
    func refusesNamesThatCouldEscapeJobs(text: String, problem: String) {
        #expect(AccountName(text) == nil)
        #expect(AccountName.problem(with: text) == problem)
    }
}
