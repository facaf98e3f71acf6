import LinkFilter
import SwitchboardCLI

// The stock `switchboard` command line, with the link filter compiled in:
//   swift run example-server serve --port 3000
//   swift run example-server hooks list
await SwitchboardCommand.main(plugins: [LinkFilter(trusted: ["moderator"])])
