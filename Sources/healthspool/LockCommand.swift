import ArgumentParser
import HealthSpoolDaemon

struct LockCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lock",
        abstract: "Set the lock flag: nothing in the spool is read and nothing is sent until unlock.",
        discussion: "The flag is the file $XDG_STATE_HOME/healthspool/locked; a screen locker hook may create and remove it directly. It survives daemon restarts."
    )
    @OptionGroup var common: CommonOptions

    func run() throws {
        try LockFlag.set(path: try common.configuration().lockFlagPath)
        print("locked: files wait in the spool and samples stay queued until 'healthspool unlock'")
    }
}

struct UnlockCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "unlock", abstract: "Release the lock flag: what waited is imported and sent.")
    @OptionGroup var common: CommonOptions

    func run() throws {
        try LockFlag.clear(path: try common.configuration().lockFlagPath)
        print("unlocked")
    }
}
