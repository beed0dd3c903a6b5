import type { Tool } from '@modelcontextprotocol/server';
import { DomainError } from '../core/errors.js';

/**
 * tools/list grouped by toolset (`time`, `calendar`, …), in listing order. Catalogues answer in
 * this form and the Lambda bundle carries it, so a selection filters the listing without
 * loading a single tool.
 */
export type ToolsetListing = Readonly<Record<string, readonly Tool[]>>;

/** The toolsets a connection enabled; undefined when it chose none, which enables them all. */
export type ToolsetSelection = readonly string[] | undefined;

/** The word that asks for every toolset, where a list is expected (e.g. `?toolsets=all`). */
export const ALL_TOOLSETS = 'all';

/**
 * Reads a comma-separated toolset list (`"time,availability"`; `"all"` for every toolset) as a
 * selection; INVALID_INPUT naming the unknown name and the known ones otherwise. `source` says
 * where the list came from (`?toolsets=`, `--toolsets`), so the message points at what to fix.
 *
 * @example
 * parseToolsets('time, availability', ['time', 'calendar', 'availability'], '--toolsets'); // ['time', 'availability']
 */
export function parseToolsets(text: string, known: readonly string[], source: string): ToolsetSelection {
  const names = [
    ...new Set(
      text
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean),
    ),
  ];
  if (names.length === 1 && names[0] === ALL_TOOLSETS) return undefined;
  const unknown = names.find((name) => !known.includes(name));
  if (names.length === 0 || unknown !== undefined) {
    const problem =
      unknown === undefined ? `${source} names no toolset` : `Unknown toolset "${unknown}" in ${source}`;
    throw new DomainError(
      'INVALID_INPUT',
      `${problem}. Expected a comma-separated list of ${known.join(', ')} ` +
        `(e.g. "${known.slice(0, 2).join(',')}"), or "${ALL_TOOLSETS}" for every toolset.`,
      { field: 'toolsets', known, ...(unknown === undefined ? {} : { unknown }) },
    );
  }
  return names;
}

/** True when the selection enables `toolset` (no selection enables every toolset). */
export function isEnabled(selection: ToolsetSelection, toolset: string): boolean {
  return selection === undefined || selection.includes(toolset);
}

/** The tools/list entries of the enabled toolsets, in listing order. */
export function enabledTools(listing: ToolsetListing, selection: ToolsetSelection): Tool[] {
  return Object.entries(listing).flatMap(([toolset, tools]) => (isEnabled(selection, toolset) ? tools : []));
}

/** Why a tool outside the selection is refused, and the three ways to enable its toolset. */
export function notEnabledMessage(toolName: string, toolset: string, selection: readonly string[]): string {
  const wider = [...selection, toolset].join(',');
  return (
    `Tool "${toolName}" belongs to toolset "${toolset}", which this connection did not enable ` +
    `(enabled: ${selection.join(', ')}). Enable it with /mcp?toolsets=${wider}, ` +
    `\`meridian serve|stdio --toolsets ${wider}\`, or the key's default: \`meridian keys toolsets KEY_ID ${wider}\`.`
  );
}
