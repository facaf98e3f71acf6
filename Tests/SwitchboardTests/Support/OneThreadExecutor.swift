import Foundation
import Synchronization

/// Runs its tasks' jobs one at a time on a thread of its own: a test can see whether a job
/// blocked that thread (the next job never runs) or suspended (it does).
final class OneThreadExecutor: TaskExecutor {
    private let jobs = Mutex<[UnownedJob]>([])
    private let arrived = DispatchSemaphore(value: 0)

    init() {
        let thread = Thread { [self] in
            while true {
                arrived.wait()
                guard let job = jobs.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { continue }
                job.runSynchronously(on: asUnownedTaskExecutor())
            }
        }
        thread.name = "test.one-thread-executor"
        thread.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        jobs.withLock { $0.append(job) }
        arrived.signal()
    }
}
