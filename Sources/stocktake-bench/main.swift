import Foundation

/// Top-level usage of `stocktake-bench`.
let benchUsage = """
    usage: stocktake-bench <command> [options]

    commands:
      generate   write a realistic test account with known, injected discrepancies
      run        measure stocktake on generated accounts and check it finds exactly the injected discrepancies
      workbook   measure reading one large .xlsx sheet against the same sheet as CSV
      report     measure report.html with many findings: its size and Chromium's time to render it

    Run 'stocktake-bench <command> --help' for the options of a command.
    """

let arguments = Array(CommandLine.arguments.dropFirst())
let status: Int32
switch arguments.first {
case "-h", "--help", "help":
    print(benchUsage)
    status = 0
case "generate":
    status = GenerateCommand.main(Array(arguments.dropFirst()))
case "run":
    status = RunCommand.main(Array(arguments.dropFirst()))
case "workbook":
    status = WorkbookCommand.main(Array(arguments.dropFirst()))
case "report":
    status = ReportCommand.main(Array(arguments.dropFirst()))
case nil:
    StandardError.write("stocktake-bench: missing command; run 'stocktake-bench --help'.")
    status = 64
case let command?:
    StandardError.write("stocktake-bench: unknown command '\(command)'; run 'stocktake-bench --help'.")
    status = 64
}
exit(status)
