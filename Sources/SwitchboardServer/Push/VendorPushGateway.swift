import Logging
import SwitchboardCore
import SwitchboardHooks

/// A Chinese Android maker's push provider, made from its accounts as the config lists them.
protocol VendorPushGateway: PushGateway {
    associatedtype Settings: VendorPushSettings
    init(accounts: [Settings], store: any PushDeviceStore, queue: WorkQueue, metrics: HookMetrics, logger: Logger) throws
}
