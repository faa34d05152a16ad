import StocktakeCore
import StocktakeJob
import Testing

@Suite struct AccountStateErrorTests {
    private let account = AccountName("vt-nis")!

    @Test func descriptionsNameTheAccountThePathAndWhatToDo() {
        #expect(
            AccountStateError.cannotLock(account: account, path: "/s/vt-nis/lock", reason: "permission denied")
                .description
                == "Account vt-nis: cannot lock /s/vt-nis/lock (permission denied); "
                + "check that the state folder is writable and on a file system that supports flock.")
        #expect(
            AccountStateError.cannotWrite(account: account, path: "/s/vt-nis/latest", reason: "the disk is full")
                .description
                == "Account vt-nis: cannot write /s/vt-nis/latest (the disk is full); "
                + "check that the state folder is writable and the disk is not full.")
        #expect(
            AccountStateError.cannotRemove(account: account, path: "/s/vt-nis/runs/x", reason: "permission denied")
                .description
                == "Account vt-nis: cannot remove /s/vt-nis/runs/x (permission denied); "
                + "check the permissions of the state folder, or remove it by hand.")
        #expect(
            AccountStateError.cannotRead(account: account, path: "/s/vt-nis/runs", reason: "permission denied")
                .description
                == "Account vt-nis: cannot read the folder /s/vt-nis/runs (permission denied); "
                + "check the permissions of the state folder.")
    }

    @Test func exitStatuses() {
        #expect(AccountStateError.cannotLock(account: account, path: "p", reason: "r").exitStatus == .cannotCreate)
        #expect(AccountStateError.cannotWrite(account: account, path: "p", reason: "r").exitStatus == .cannotCreate)
        #expect(AccountStateError.cannotRemove(account: account, path: "p", reason: "r").exitStatus == .ioError)
        #expect(AccountStateError.cannotRead(account: account, path: "p", reason: "r").exitStatus == .ioError)
    }
}
