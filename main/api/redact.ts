// Keeps secrets (the API key) out of messages and log lines.

export const REDACTED = '[redacted]';

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

/** Replaces every occurrence of each secret, and of its URL-encoded form, with `[redacted]`. */
export function redactSecrets(text: string, secrets: string[]): string {
  const needles = new Set<string>();
  for (const secret of secrets) {
    if (secret === '') continue;
    needles.add(secret);
    needles.add(encodeURIComponent(secret));
  }
  // Longest first, so a secret that contains another one is replaced whole.
  let out = text;
  for (const needle of [...needles].sort((a, b) => b.length - a.length)) out = out.replaceAll(needle, REDACTED);
  return out;
}

const MAX_DEPTH = 6;

/** Strings are redacted, arrays and plain objects walked; any other object is logged as its redacted String(). */
function redactValue(value: unknown, secrets: string[], depth: number): unknown {
  if (typeof value === 'string') return redactSecrets(value, secrets);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return '[too deep]';
  if (Array.isArray(value)) return value.map((v) => redactValue(v, secrets, depth + 1));
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return redactSecrets(String(value), secrets);
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [redactSecrets(k, secrets), redactValue(v, secrets, depth + 1)]),
  );
}

/** Wraps a logger so that every message and field is redacted; `secrets` is read on each call. */
export function createRedactingLogger(inner: Logger, secrets: () => string[]): Logger {
  const wrap =
    (level: keyof Logger) =>
    (msg: string, fields?: Record<string, unknown>): void => {
      const list = secrets();
      const safeFields = fields === undefined ? undefined : (redactValue(fields, list, 0) as Record<string, unknown>);
      inner[level](redactSecrets(msg, list), safeFields);
    };
  return { debug: wrap('debug'), info: wrap('info'), warn: wrap('warn'), error: wrap('error') };
}
