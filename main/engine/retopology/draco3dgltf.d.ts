// The parts of draco3dgltf (no types of its own) the engine and the test fixtures use: its decoder module
// (the engine reads Draco-compressed inputs) and its encoder module (the tests make such inputs).
declare module 'draco3dgltf' {
  const draco3d: {
    createEncoderModule(options?: object): Promise<unknown>;
    createDecoderModule(options?: object): Promise<unknown>;
  };
  export default draco3d;
}
