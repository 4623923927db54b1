// The parts of draco3dgltf (no types of its own) the test fixtures use: its encoder and decoder modules.
declare module 'draco3dgltf' {
  const draco3d: { createEncoderModule(): Promise<unknown>; createDecoderModule(): Promise<unknown> };
  export default draco3d;
}
