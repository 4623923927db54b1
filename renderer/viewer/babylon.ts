// Everything of the viewer that uses Babylon.js, as one module: renderer/build.ts bundles it on its own,
// without code splitting, into `viewer/babylon.js` (Babylon, its loaders and materials in one file, fetched
// once), and the UI loads it with loadBabylon() (load-babylon.ts). No other renderer module imports Babylon,
// so there is a single copy of its classes in the page.
// StandardMaterial: the default material of an FBX without materials (kept here whatever the scene imports).
import '@babylonjs/core/Materials/standardMaterial.js';

export { createViewer } from './scene/create-viewer.ts';
