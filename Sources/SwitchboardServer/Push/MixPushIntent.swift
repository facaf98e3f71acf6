import SwitchboardJSON

/// Where a tap on a notification LeanCloud's mixed push sent through Huawei opened the app:
/// the intent URI its cloud put in the notification's click action, which opens the app's
/// activity filtering `lcpushscheme://<host>/notify_detail` with the push's own keys, as JSON,
/// in the intent's `content` extra (LeanCloud's Android mixed-push guide, "使用特定 activity 响应
/// 推送消息"; its demo's activity reads `getStringExtra("content")`). The host is the app's
/// "Android Intent Hostname", `cn.leancloud.push` unless the app chose another.
enum MixPushIntent {
    static let defaultHost = "cn.leancloud.push"

    static func uri(host: String, content: AndroidPushContent) -> String {
        let custom = JSONValue.object(content.appData).jsonString
        return "intent://\(host)/notify_detail#Intent;scheme=lcpushscheme;S.content=\(FormURLEncoded.escaped(custom));launchFlags=0x10000000;end"
    }
}
