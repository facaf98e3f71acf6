import Metrics
import Synchronization
import SwitchboardHooks

/// A bounded queue of jobs run by a fixed number of workers: the work that follows a reply
/// (hooks that only observe, push decisions, pushes) without an unstructured task each.
///
/// When the queue is full, `submit` either waits for room (back-pressure: the submitting
/// connection stops being read until then) or refuses the job, as `whenFull` says; both are
/// counted. `close()` stops taking jobs and lets the workers finish what is queued;
/// `abandon()` gives up on what is still queued, counting it as dropped.
public final class WorkQueue: Sendable {
    public typealias Job = @Sendable () async -> Void

    public enum WhenFull: Sendable {
        /// The submitter waits until a worker frees a place.
        case wait
        /// The job is dropped.
        case drop
    }

    public struct Metrics: Sendable {
        let depth: Meter
        let completed: Counter
        let waited: Counter
        let dropped: Counter

        /// The queue's series, labelled `queue=name`, made by `metrics`.
        public init(name: String, in metrics: HookMetrics) {
            let labels = [("queue", name)]
            depth = metrics.makeGauge(subsystem: "work", name: "queue_depth", help: "Jobs waiting in a work queue.", labels: labels)
            completed = metrics.makeCounter(subsystem: "work", name: "jobs_completed", help: "Jobs a work queue ran.", labels: labels)
            waited = metrics.makeCounter(
                subsystem: "work", name: "submits_waited", help: "Submissions that found a work queue full and waited for room.", labels: labels
            )
            dropped = metrics.makeCounter(
                subsystem: "work", name: "jobs_dropped", help: "Jobs refused by a full or closed work queue, or abandoned at shutdown.",
                labels: labels
            )
        }
    }

    private struct State {
        var jobs: [Job] = []
        var head = 0
        var closed = false
        var idleWorkers: [CheckedContinuation<Job?, Never>] = []
        var waitingSubmitters: [CheckedContinuation<Void, Never>] = []

        var count: Int { jobs.count - head }

        mutating func pop() -> Job {
            let job = jobs[head]
            head += 1
            if head > 1024, head * 2 > jobs.count {
                jobs.removeFirst(head)
                head = 0
            }
            return job
        }
    }

    public let name: String
    private let capacity: Int
    private let workers: Int
    private let whenFull: WhenFull
    private let metrics: Metrics
    private let state = Mutex(State())

    public init(name: String, capacity: Int, workers: Int, whenFull: WhenFull, metrics: Metrics) {
        self.name = name
        self.capacity = max(capacity, 1)
        self.workers = max(workers, 1)
        self.whenFull = whenFull
        self.metrics = metrics
    }

    /// Jobs waiting for a worker.
    public var depth: Int { state.withLock { $0.count } }

    /// Queues `job`; false when it was dropped (queue full under `.drop`, or closed).
    @discardableResult
    public func submit(_ job: @escaping Job) async -> Bool {
        var hasWaited = false
        while true {
            enum Step { case handedOver(CheckedContinuation<Job?, Never>), queued, dropped, wait }
            let step = state.withLock { state -> Step in
                if state.closed { return .dropped }
                if !state.idleWorkers.isEmpty { return .handedOver(state.idleWorkers.removeFirst()) }
                if state.count < capacity {
                    state.jobs.append(job)
                    return .queued
                }
                return whenFull == .wait ? .wait : .dropped
            }
            switch step {
            case .handedOver(let worker):
                worker.resume(returning: job)
                return true
            case .queued:
                metrics.depth.increment()
                return true
            case .dropped:
                metrics.dropped.increment()
                return false
            case .wait:
                if !hasWaited { metrics.waited.increment() }
                hasWaited = true
                await withCheckedContinuation { continuation in
                    let resumeNow = state.withLock { state in
                        guard !state.closed, state.count >= capacity else { return true }
                        state.waitingSubmitters.append(continuation)
                        return false
                    }
                    if resumeNow { continuation.resume() }
                }
            }
        }
    }

    /// Runs the workers until the queue is closed and empty, or the task is cancelled.
    public func run() async {
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<workers {
                group.addTask {
                    while !Task.isCancelled, let job = await self.next() {
                        await job()
                        self.metrics.completed.increment()
                    }
                }
            }
        }
    }

    /// Takes no more jobs; the workers end once what is queued has run.
    public func close() {
        let (workers, submitters) = state.withLock { state in
            state.closed = true
            defer {
                state.idleWorkers.removeAll()
                state.waitingSubmitters.removeAll()
            }
            return (state.idleWorkers, state.waitingSubmitters)
        }
        for worker in workers { worker.resume(returning: nil) }
        for submitter in submitters { submitter.resume() }
    }

    /// Drops whatever is still queued (after `close()`, when draining took too long) and
    /// returns how many jobs that was.
    @discardableResult
    public func abandon() -> Int {
        let (count, workers) = state.withLock { state in
            let count = state.count
            state.jobs.removeAll()
            state.head = 0
            defer { state.idleWorkers.removeAll() }
            return (count, state.idleWorkers)
        }
        for worker in workers { worker.resume(returning: nil) }
        metrics.depth.decrement(by: Double(count))
        metrics.dropped.increment(by: Int64(count))
        return count
    }

    /// The next job for a worker, waiting for one; nil once the queue is closed and empty.
    private func next() async -> Job? {
        while true {
            enum Step { case job(Job, CheckedContinuation<Void, Never>?), finished, idle }
            let step = state.withLock { state -> Step in
                if state.count > 0 {
                    let job = state.pop()
                    let submitter = state.waitingSubmitters.isEmpty ? nil : state.waitingSubmitters.removeFirst()
                    return .job(job, submitter)
                }
                return state.closed ? .finished : .idle
            }
            switch step {
            case .job(let job, let submitter):
                metrics.depth.decrement()
                submitter?.resume()
                return job
            case .finished:
                return nil
            case .idle:
                // Resumed with a job handed over by `submit`, or with nil to look again.
                let handed: Job? = await withCheckedContinuation { continuation in
                    let lookAgain = state.withLock { state in
                        if state.count > 0 || state.closed { return true }
                        state.idleWorkers.append(continuation)
                        return false
                    }
                    if lookAgain { continuation.resume(returning: nil) }
                }
                if let handed { return handed }
            }
        }
    }
}
