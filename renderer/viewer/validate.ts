// The Khronos glTF validator on the open model, in the page: the validator (compiled from Dart, ~300 KB) is
// loaded on first use (import(), its own chunk) and reads the same bytes the viewer opened: the picked File
// (and its neighbours for a .gltf's buffers and images) or the same host URL. Nothing leaves the host.
import type { ModelSource } from './types.ts';

export interface ValidationSummary {
  errors: number;
  warnings: number;
  infos: number;
  hints: number;
  /** The first messages (at most MAX_MESSAGES). */
  messages: { code: string; message: string; pointer: string; severity: 'error' | 'warning' | 'info' | 'hint' }[];
  /** Messages beyond those shown. */
  more: number;
  version: string;
}

export const MAX_MESSAGES = 20;
const SEVERITIES = ['error', 'warning', 'info', 'hint'] as const;

async function read(
  source: ModelSource,
): Promise<{ bytes: Uint8Array; uri: string; resource: (uri: string) => Promise<Uint8Array> }> {
  if ('files' in source) {
    const main = source.files.find((f) => /\.(glb|gltf)$/i.test(f.name));
    if (!main) throw new Error('no glTF file is open');
    return {
      bytes: new Uint8Array(await main.arrayBuffer()),
      uri: main.name,
      resource: async (uri) => {
        const name = decodeURIComponent(uri).split(/[\\/]/).pop()!;
        const file = source.files.find((f) => f.name === name);
        if (!file) throw new Error(`${name} was not picked with the model`);
        return new Uint8Array(await file.arrayBuffer());
      },
    };
  }
  const get = async (url: string) => {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
    return new Uint8Array(await response.arrayBuffer());
  };
  const base = new URL(source.url, location.href);
  return {
    bytes: await get(base.href),
    uri: source.name,
    resource: async (uri) => {
      const url = new URL(uri, base);
      if (url.origin !== location.origin) throw new Error(`${uri} is not on this host`);
      return get(url.href);
    },
  };
}

export async function validateModel(source: ModelSource): Promise<ValidationSummary> {
  const [validator, input] = await Promise.all([import('gltf-validator'), read(source)]);
  const report = await validator.validateBytes(input.bytes, {
    uri: input.uri,
    writeTimestamp: false,
    maxIssues: 0,
    externalResourceFunction: input.resource,
  });
  const issues = report.issues;
  return {
    errors: issues.numErrors,
    warnings: issues.numWarnings,
    infos: issues.numInfos,
    hints: issues.numHints,
    messages: issues.messages.slice(0, MAX_MESSAGES).map((m) => ({
      code: m.code,
      message: m.message,
      pointer: m.pointer ?? (m.offset !== undefined ? `byte ${m.offset}` : ''),
      severity: SEVERITIES[m.severity] ?? 'info',
    })),
    more: Math.max(0, issues.messages.length - MAX_MESSAGES),
    version: validator.version(),
  };
}
