import type { Command, Option } from 'commander';

const looksLikeOption = (arg: string): boolean => arg.length > 1 && arg.startsWith('-');
const takesValue = (option: Option): boolean => option.required || option.optional;

/**
 * What commander's parse of the root will do with args (process.argv without node and script), read
 * the way Command.parseOptions reads them when options are not positional: the root's own options
 * count anywhere, each with its value; the first operand names the subcommand, unless an unknown
 * option comes before it (commander then dispatches to none). The version flag prints the version
 * during that parse, before any subcommand is looked up.
 */
export function rootDispatch(root: Command, args: string[]): 'version' | { operand: string | undefined } {
  const findOption = (flag: string) => root.options.find((option) => option.short === flag || option.long === flag);
  const rest = [...args];
  while (rest.length > 0) {
    const arg = rest.shift()!;
    // After --, every word is an operand.
    if (arg === '--') return { operand: rest[0] };
    if (!looksLikeOption(arg)) return { operand: arg };
    const option = findOption(arg);
    if (option) {
      if (option.long === '--version') return 'version';
      // An optional value is taken only when it does not look like an option itself.
      if (option.required || (option.optional && rest.length > 0 && !looksLikeOption(rest[0]!))) rest.shift();
      continue;
    }
    // A group of short flags (-qv): the first one, then the rest of the group, unless that is its value.
    const first = !arg.startsWith('--') && arg.length > 2 ? findOption(arg.slice(0, 2)) : undefined;
    if (first) {
      if (!takesValue(first)) rest.unshift(arg.slice(0, 2), `-${arg.slice(2)}`);
      continue;
    }
    const withValue = /^--[^=]+=/.test(arg) ? findOption(arg.slice(0, arg.indexOf('='))) : undefined;
    if (withValue && takesValue(withValue)) continue;
    return { operand: undefined };
  }
  return { operand: undefined };
}
