// Third-party data the product ships, with the credit its terms ask for: the one home of that text, shown in the
// app's About (Settings › Account and app), written into the engine's motion data (scripts/build-motions.ts) and
// quoted in the READMEs.

/**
 * The motion-capture clips of the local engine's motion library (main/engine/motions): the CMU Graphics Lab Motion
 * Capture Database, free for all uses including commercial products, not to be resold as data.
 */
export const MOTION_DATA_CREDIT =
  'Motion data obtained from mocap.cs.cmu.edu (CMU Graphics Lab Motion Capture Database; created with funding from NSF EIA-0196217). BVH retarget by DragonForgedTheArtist/IClone-CMU-Mocap.';
