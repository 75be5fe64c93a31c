// pbem orders encode|decode [--from F] [--to F] [-o OUT] FILE
#include <iostream>

#include "daemon/cli/cli.h"

namespace pbem::cli {

int RunOrdersCodecCommand(bool encode, const Args& args) {
  if (WantsHelp(args)) {
    std::cout << *Usage("orders");
    return kExitOk;
  }
  const std::string name = encode ? "orders encode" : "orders decode";
  std::optional<codec::Format> from;
  codec::Format to = encode ? codec::Format::kBinary : codec::Format::kText;
  std::string out_path;
  std::optional<std::string> input;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--from" || a == "--to" || a == "-o") {
      if (i + 1 >= args.size()) return UsageError("orders", name + ": " + a + " needs a value");
      const std::string& value = args[++i];
      if (a == "-o") {
        out_path = value;
        continue;
      }
      const auto format = codec::ParseFormat(value);
      if (!format) {
        return UsageError("orders",
                          name + ": unknown format '" + value + "' (text, json or binary)");
      }
      if (a == "--from") {
        from = *format;
      } else {
        to = *format;
      }
    } else if (a.size() > 1 && a[0] == '-') {
      return UsageError("orders", name + ": unknown option '" + a + "'");
    } else if (input) {
      return UsageError("orders", name + ": give exactly one input file");
    } else {
      input = a;
    }
  }
  if (!input) return UsageError("orders", name + ": no input file (use - for standard input)");

  const auto bytes = ReadInput(*input);
  if (!bytes.ok()) {
    PrintErrors(bytes.errors());
    return kExitProblems;
  }
  const auto orders = codec::ParseOrders(bytes.value(), from, SourceName(*input));
  if (!orders.ok()) {
    PrintErrors(orders.errors());
    return kExitProblems;
  }
  if (!WriteOutput(out_path, codec::SerializeMessage(orders.value(), to))) return kExitProblems;
  return kExitOk;
}

}  // namespace pbem::cli
