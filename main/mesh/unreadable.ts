// Why an input mesh cannot be read: `reason` completes "The input mesh <url> …" (the engine's inputs.ts
// describeInput), e.g. "holds no triangles (…): give a model with a triangle mesh".
export class UnreadableMesh extends Error {
  readonly reason: string;
  constructor(reason: string) {
    super(reason);
    this.name = 'UnreadableMesh';
    this.reason = reason;
  }
}
