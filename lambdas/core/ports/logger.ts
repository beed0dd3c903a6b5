/** Where operational messages go. Powertools on Lambda, stderr locally (stdout belongs to stdio MCP). */
export interface Logger {
  info(message: string, extra?: Record<string, unknown>): void;
  warn(message: string, extra?: Record<string, unknown>): void;
  error(message: string, extra?: Record<string, unknown>): void;
}
