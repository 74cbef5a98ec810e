import ArgumentParser
import HealthSpoolCore
import HealthSpoolDaemon
import HealthSpoolLinux
import HealthSpoolStore

struct LockCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lock",
        abstract: "Set the lock flag: nothing in the spool is read and nothing is sent until unlock.",
        discussion: "The flag is the file $XDG_STATE_HOME/healthspool/locked; a screen locker hook may create and remove it directly. It survives daemon restarts."
    )
    @OptionGroup var common: CommonOptions

    func run() throws {
        let context = try common.context()
        try FileSystem.makeDirectory(context.stateDir, mode: 0o700)
        try FileSystem.writeAtomically(context.lockFlagPath, Array("locked\n".utf8))
        print("locked: files wait in the spool and samples stay queued until 'healthspool unlock'")
    }
}

struct UnlockCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "unlock", abstract: "Release the lock flag: what waited is imported and sent.")
    @OptionGroup var common: CommonOptions

    func run() throws {
        let context = try common.context()
        try FileSystem.remove(context.lockFlagPath)
        FileSystem.syncDirectory(of: context.lockFlagPath)
        print("unlocked")
    }
}
