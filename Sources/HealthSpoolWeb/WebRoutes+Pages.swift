import HealthJournal
import HealthSpoolConfig
import HealthSpoolCore
import HealthSpoolDaemon
import HealthSpoolLinux
import Hummingbird

extension WebRoutes {
    func addPages(_ router: Router<WebContext>) {
        router.get("/") { r, c in try await page(r, c) { ctx, store, q, csrf in try HomePage.render(ctx, store: store, query: q, csrf: csrf) } }
        router.get("/sync") { r, c in try await page(r, c) { _, store, q, csrf in try SyncPage.render(store: store, query: q, csrf: csrf) } }
        router.get("/settings") { r, c in try await page(r, c) { ctx, q, csrf in SettingsPage.render(ctx, query: q, csrf: csrf) } }
        router.get("/journal") { r, c in try await page(r, c) { _, store, q, csrf in try JournalToday.render(store: store, query: q, csrf: csrf) } }
        router.get("/meds") { r, c in try await page(r, c) { _, store, q, csrf in try MedicationsPage.render(store: store, query: q, csrf: csrf) } }
        router.get("/reminders") { r, c in try await page(r, c) { _, store, q, csrf in try ReminderForms.page(store: store, query: q, csrf: csrf) } }
        router.get("/records") { r, c in try await page(r, c) { _, store, q, csrf in try RecordsPage.render(store: store, query: q, csrf: csrf) } }
        router.get("/deletions") { r, c in try await page(r, c) { _, store, q, csrf in try DeletionsPage.render(store: store, query: q, csrf: csrf) } }
        router.get("/measure") { r, c in try await page(r, c) { ctx, store, q, csrf in try MeasurePage.render(ctx, store: store, query: q, csrf: csrf) } }

        router.post("/settings/types") { r, c in try await action(r, c, SettingsPage.saveTypes) }
        router.post("/settings/glucose") { r, c in try await action(r, c, SettingsPage.saveGlucoseUnit) }
        router.post("/settings/frequency") { r, c in try await action(r, c, SettingsPage.saveFrequency) }
        router.post("/settings/lock") { r, c in try await action(r, c, SettingsPage.setLock) }
        router.post("/settings/after-import") { r, c in try await action(r, c, SettingsPage.saveAfterImport) }
        router.post("/settings/gateway/test") { r, c in try await action(r, c, SettingsPage.testGateway) }
        router.post("/deletions/restore") { r, c in try await action(r, c, borrowing: DeletionsPage.restore) }
        router.post("/meds/add") { r, c in try await undoable(r, c, JournalPages.addMedication) }
        router.post("/meds/take") { r, c in try await undoable(r, c, DoseEdits.take) }
        router.post("/reminders/add") { r, c in try await undoable(r, c, ReminderForms.add as @Sendable (Configuration, LentStore, Form, FormKeys) throws -> (Response, JournalUndo?)) }
        router.post("/reminders/remove") { r, c in try await undoable(r, c, JournalPages.removeReminder) }
        router.post("/measure") { r, c in try await undoable(r, c, MeasurePage.add as @Sendable (Configuration, LentStore, Form, FormKeys) throws -> (Response, JournalUndo?)) }

        router.post("/sync") { _, _ in
            let current = configuration
            let sync = self.sync
            _ = try await store.run(.read) { lease in
                let ctx = current.value
                let uses = try lease.uses(ctx)
                return sync.start(context: ctx) { (try? uses.queuedCounts()) ?? [:] }
            }
            return Response(status: .accepted)
        }
        router.get("/sync/events") { _, _ in
            let sync = self.sync
            var r = Response(status: .ok, headers: [.contentType: "text/event-stream"], body: ResponseBody { writer in
                while true {
                    let s = sync.snapshot
                    try await writer.write(ByteBuffer(string: SyncRun.event(s)))
                    if s.done { break }
                    try await TaskThreadPool.sleep(for: .milliseconds(250))
                }
                try await writer.finish(nil)
            })
            r.headers[.cacheControl] = "no-store"
            return r
        }
    }
}
