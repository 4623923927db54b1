// The Khronos glTF validator (gltf-validator, CommonJS) with the part of its report the tests read.
import { createRequire } from 'node:module';

export interface ValidationMessage {
  code: string;
  severity: number;
  message: string;
  pointer?: string;
}

export interface ValidationReport {
  issues: { numErrors: number; numWarnings: number; numInfos: number; messages: ValidationMessage[] };
  info: { animationCount: number; hasSkins: boolean; hasAnimations: boolean };
}

export const validator = createRequire(import.meta.url)('gltf-validator') as {
  validateBytes(
    data: Uint8Array,
    options?: { maxIssues?: number; writeTimestamp?: boolean },
  ): Promise<ValidationReport>;
};
