import SwitchboardCLI

await SwitchboardCommand.main(plugins: [])
