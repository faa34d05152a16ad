import StocktakeCore
import StocktakeSync
import Testing

@Suite struct SyncErrorTests {
    @Test func rejectedTokenNamesAccountURLAndWhereToRenew() {
        let error = SyncError.credentialsRejected(
            account: "acme", url: "https://files.example.org/central.csv", status: 401, detail: "",
            renewal: "Renew it in Jobs/acme/secrets/token.")
        #expect(
            error.description
                == "The token for account acme was rejected (401) by https://files.example.org/central.csv. "
                + "Renew it in Jobs/acme/secrets/token.")
        #expect(error.exitStatus == .noPermission)
        #expect(error.exitStatus.rawValue == 77)
    }

    @Test func accessDeniedSuggestsAskingForAccess() {
        let error = SyncError.accessDenied(
            account: "acme", url: "https://x.example.org/s",
            detail: "PERMISSION_DENIED: The caller does not have permission",
            renewal: "Renew it in Jobs/acme/secrets/token.")
        #expect(
            error.description
                == "The token for account acme may not use https://x.example.org/s (403): PERMISSION_DENIED: The caller "
                + "does not have permission. Ask the sheet's owner for access, or renew it in Jobs/acme/secrets/token.")
        #expect(error.exitStatus.rawValue == 77)
    }

    @Test func pullFailuresAre69AndPushFailures75() {
        let url = "https://x.example.org/s"
        #expect(SyncError.notFound(account: "a", url: url, detail: "", phase: .pull).exitStatus.rawValue == 69)
        #expect(SyncError.notFound(account: "a", url: url, detail: "", phase: .push).exitStatus.rawValue == 75)
        #expect(
            SyncError.unavailable(account: "a", url: url, status: 503, detail: "", phase: .pull).exitStatus.rawValue
                == 69)
        #expect(
            SyncError.unavailable(account: "a", url: url, status: 503, detail: "", phase: .push).exitStatus.rawValue
                == 75)
        #expect(SyncError.changedSincePull(account: "a", url: url).exitStatus.rawValue == 75)
        #expect(
            SyncError.unreachable(account: "a", error: .timedOut(url: url, seconds: 5), phase: .pull).exitStatus
                .rawValue
                == 69)
        #expect(SyncError.secrets(account: "a", path: "/x", reason: "is empty").exitStatus.rawValue == 77)
    }

    @Test func changedSincePullSaysNothingWasOverwritten() {
        #expect(
            SyncError.changedSincePull(account: "acme", url: "https://x.example.org/central.csv").description
                == "Account acme: https://x.example.org/central.csv was changed by someone else since it was pulled, "
                + "so it was not overwritten. The outputs are kept; the next run pulls the new version and pushes again."
        )
    }

    @Test func unavailableDuringPushKeepsOutputs() {
        let error = SyncError.unavailable(
            account: "acme", url: "https://x.example.org/s", status: 503, detail: "", phase: .push)
        #expect(
            error.description
                == "Account acme: https://x.example.org/s is unavailable (503) and stayed so after retries. "
                + "The outputs are kept; the push is retried on the next run.")
    }

    @Test func aServerDetailEndingASentenceDoesNotDoubleThePeriod() {
        let url = "https://x.example.org/s"
        #expect(
            SyncError.notFound(
                account: "acme", url: url, detail: "NOT_FOUND: Requested entity was not found.", phase: .pull
            )
            .description
                == "Account acme: nothing at https://x.example.org/s (404): NOT_FOUND: Requested entity was not found. "
                + "Check the URL or the sheet's id.")
        #expect(
            SyncError.unavailable(
                account: "acme", url: url, status: 500, detail: "INTERNAL: Internal error encountered.", phase: .pull
            ).description
                == "Account acme: https://x.example.org/s is unavailable (500): INTERNAL: Internal error encountered "
                + "and stayed so after retries. Try again later.")
    }
}

@Suite struct HTTPErrorSizeTests {
    @Test func limitsReadAsPeopleWriteThem() {
        #expect(
            HTTPError.tooLarge(url: "https://x.example.org/a.csv", limit: 512 << 20).description.contains(
                "more than 512 MB,"))
        #expect(
            HTTPError.tooLarge(url: "https://x.example.org/a.csv", limit: 64 << 10).description.contains(
                "more than 64 KB,"))
        #expect(
            HTTPError.tooLarge(url: "https://x.example.org/a.csv", limit: 900).description.contains(
                "more than 900 bytes,"))
    }
}
