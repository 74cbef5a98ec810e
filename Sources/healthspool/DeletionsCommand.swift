import ArgumentParser
import HealthSpoolCore
import HealthSpoolDaemon

struct DeletionsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "deletions",
        abstract: "List samples a newer full export showed deleted on the phone; put them back (--restore) or mark waiting ones (apply).",
        discussion: """
            When a newer full Apple Health export (export.zip or export.xml) no longer holds a sample an earlier full export held, the sample was deleted on the phone: healthspool marks it deleted and sends a tombstone (same id, higher version, deleted). Never from Health Auto Export, native or partial files, nor from an export older than the newest one seen. One import marks at most store.deletions_max_percent of the stored samples of its range; above it the deletions wait here for 'healthspool deletions apply'.
            """
    )
    @OptionGroup var common: CommonOptions
    @Argument(help: "With apply: mark the waiting deletions deleted.") var action: String?
    @Flag(help: "Put samples back (sent again, same id, higher version): the ids given with --id, else those the last import marked.") var restore = false
    @Option(name: .customLong("id"), help: "A sample id to restore (repeatable).") var ids: [String] = []
    @Flag(help: "Print JSON.") var json = false

    func validate() throws {
        if let action, action != "apply" { throw ValidationError("unknown action '\(action)': the only one is apply") }
        if action != nil && restore { throw ValidationError("apply and --restore do opposite things: give one") }
        for id in ids where SampleID(string: id) == nil { throw ValidationError("'\(id)' is not a sample id (a UUID, as healthspool deletions lists)") }
        if !ids.isEmpty && !restore { throw ValidationError("--id names samples to put back: add --restore") }
    }

    func run() throws {
        let configuration = try common.configuration()
        if action == "apply" {
            let change = try InferredDeletionList.apply(store: .connect(to: configuration), controlSocket: configuration.controlSocket)
            print("\(change.count) sample(s) marked deleted; their tombstones are sent")
        } else if restore {
            let change = try InferredDeletionList.restore(store: .connect(to: configuration), ids: ids.isEmpty ? nil : ids.compactMap(SampleID.init(string:)),
                                                          controlSocket: configuration.controlSocket)
            print("\(change.count) sample(s) put back; they are sent again")
        } else {
            print(try InferredDeletionList.list(store: .connect(to: configuration), json: json))
        }
    }
}
