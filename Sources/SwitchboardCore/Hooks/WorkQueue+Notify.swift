import SwitchboardHooks

extension WorkQueue {
    /// Tells an observing hook point's handlers from one of the queue's workers, so that
    /// nothing waits for them; nothing is queued when the point has no handlers.
    func notify<Notification: HookNotification>(_ pipeline: HookPipeline, _ notification: Notification) async {
        guard pipeline.hasHandlers(for: notification.point) else { return }
        await submit { _ = await pipeline.run(notification) }
    }
}
