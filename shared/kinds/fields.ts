// Reading fields of a resource as the service last reported it, without trusting their types: a missing or
// mistyped field reads as empty, so an odd record never stops the app.
export type Fields = Readonly<Record<string, unknown>>;

export function record(value: unknown): Fields {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Fields) : {};
}

export function list(value: unknown): Fields[] {
  return Array.isArray(value) ? value.map(record) : [];
}

export function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}
