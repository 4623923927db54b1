// Binary FBX 7.4 of a static model's LOD chain: one Mesh Model and Geometry per level, named `<Name>_LOD0..n`
// (Unity's model importer builds a LOD Group of meshes so named, "Importing LOD Meshes"), optionally under a
// parent Model carrying an FBX `LodGroup` NodeAttribute (the FBX SDK's FbxLODGroup: Unreal's "Import Mesh LODs"
// reads its children as LOD0..n, with its thresholds). Every level shares one material whose maps are Textures
// connected to its properties the way importers read them: the base colour to `DiffuseColor`, the normal map to
// `NormalMap` (Unity: _BumpMap with _NORMALMAP; Unreal: Normal; Blender: a Normal Map node), and a metallic map to
// `ReflectionFactor` (Blender: Metallic). Each image is embedded (a Video's Content) and named by the file written
// beside the FBX. Y up, metres, like fbx.ts.
import {
  fbxFile,
  float64,
  float64Array,
  int32,
  int32Array,
  int64,
  layerElement,
  node,
  properties70,
  property,
  raw,
  string,
  type FbxNode,
} from './fbx-binary.ts';
import { documentHead, FBX_VERSION, lambertMaterial, layer, oo, op } from './fbx-document.ts';

export interface FbxLevel {
  positions: Float32Array;
  normals: Float32Array;
  /** glTF convention (v down). */
  uvs: Float32Array;
  /** Polygons; the last index of each stored as -(index + 1). */
  polygonVertexIndex: Int32Array;
}

/** The material property a map is connected to. */
export type FbxMapSlot = 'DiffuseColor' | 'NormalMap' | 'ReflectionFactor';

export interface FbxMap {
  slot: FbxMapSlot;
  png: Uint8Array;
  /** The name of the file written beside the FBX. */
  fileName: string;
}

export interface FbxLodContent {
  /** The asset's name: the levels are `<name>_LOD<i>`, the group `<name>_LODGroup`. */
  name: string;
  levels: FbxLevel[];
  /** With a LodGroup parent (Unreal); its thresholds are `screenSizes` (one per level, 0..1). */
  group?: { screenSizes: number[] };
  color: [number, number, number];
  maps: FbxMap[];
}

/** The FBX of the chain; `creator` names the program in its header. */
export function writeLodFbx(content: FbxLodContent, creator: string): Buffer {
  let next = 3_000_000n;
  const id = () => next++;
  const groupId = content.group ? id() : undefined;
  const attributeId = content.group ? id() : undefined;
  const materialId = id();
  const levels = content.levels.map((level, i) => ({ level, i, geometry: id(), model: id() }));
  const maps = content.maps.map((map) => ({ map, texture: id(), video: id() }));
  const objects: FbxNode[] = [];
  const connections: FbxNode[] = [];
  if (groupId !== undefined && attributeId !== undefined && content.group) {
    objects.push(
      lodGroupAttribute(attributeId, content.group.screenSizes),
      groupModel(groupId, `${content.name}_LODGroup`),
    );
    connections.push(oo(groupId, 0n), oo(attributeId, groupId));
  }
  for (const { level, i, geometry, model } of levels) {
    const name = `${content.name}_LOD${i}`;
    objects.push(geometryNode(geometry, name, level), meshModel(model, name));
    connections.push(oo(model, groupId ?? 0n), oo(geometry, model), oo(materialId, model));
  }
  objects.push(lambertMaterial(materialId, `${content.name}_Material`, content.color));
  for (const { map, texture, video } of maps) {
    objects.push(...textureNodes(texture, video, map));
    connections.push(op(texture, materialId, map.slot), oo(video, texture));
  }
  return fbxFile(
    [...documentHead(creator), node('Objects', [], objects), node('Connections', [], connections)],
    FBX_VERSION,
  );
}

function geometryNode(id: bigint, name: string, level: FbxLevel): FbxNode {
  return node(
    'Geometry',
    [int64(id), string(`${name}\x00\x01Geometry`), string('Mesh')],
    [
      node('Vertices', [float64Array(level.positions)]),
      node('PolygonVertexIndex', [int32Array(level.polygonVertexIndex)]),
      node('GeometryVersion', [int32(124)]),
      layerElement('LayerElementNormal', 'Normals', float64Array(level.normals)),
      layerElement('LayerElementUV', 'UV', float64Array(level.uvs.map((x, k) => (k % 2 ? 1 - x : x)))), // v up
      layerElement('LayerElementMaterial', 'Materials', int32Array(Int32Array.of(0)), 'AllSame', 'IndexToDirect'),
      layer(['LayerElementNormal', 'LayerElementUV', 'LayerElementMaterial']),
    ],
  );
}

function meshModel(id: bigint, name: string): FbxNode {
  return node(
    'Model',
    [int64(id), string(`${name}\x00\x01Model`), string('Mesh')],
    [node('Version', [int32(232)]), node('Shading', [int32(1)]), node('Culling', [string('CullingOff')])],
  );
}

function groupModel(id: bigint, name: string): FbxNode {
  return node(
    'Model',
    [int64(id), string(`${name}\x00\x01Model`), string('LodGroup')],
    [node('Version', [int32(232)]), node('Culling', [string('CullingOff')])],
  );
}

/**
 * The FbxLODGroup attribute: thresholds as percentages of the screen (ThresholdsUsedAsPercentage), one between
 * each pair of levels (the FBX SDK keeps n−1 thresholds for n levels), every level displayed as usual.
 */
function lodGroupAttribute(id: bigint, screenSizes: number[]): FbxNode {
  const thresholds = screenSizes.slice(1);
  return node(
    'NodeAttribute',
    [int64(id), string('\x00\x01NodeAttribute'), string('LodGroup')],
    [
      properties70([
        property('ThresholdsUsedAsPercentage', 'bool', '', int32(1)),
        property('MinMaxDistance', 'bool', '', int32(0)),
        property('WorldSpace', 'bool', '', int32(0)),
        node('P', [string('Thresholds'), string('Compound'), string(''), string('')]),
        ...thresholds.map((t, i) =>
          node('P', [string(`Thresholds|Level${i}`), string('Number'), string(''), string('A'), float64(t * 100)]),
        ),
        node('P', [string('DisplayLevels'), string('Compound'), string(''), string('')]),
        ...screenSizes.map((_, i) =>
          node('P', [string(`DisplayLevels|Level${i}`), string('enum'), string(''), string(''), int32(0)]),
        ),
      ]),
      node('TypeFlags', [string('LodGroup')]),
    ],
  );
}

function textureNodes(textureId: bigint, videoId: bigint, map: FbxMap): FbxNode[] {
  const label = map.fileName.replace(/\.[^.]*$/, '');
  return [
    node(
      'Texture',
      [int64(textureId), string(`${label}\x00\x01Texture`), string('')],
      [
        node('Type', [string('TextureVideoClip')]),
        node('Version', [int32(202)]),
        node('TextureName', [string(`${label}\x00\x01Texture`)]),
        node('Media', [string(`${label}\x00\x01Video`)]),
        node('FileName', [string(map.fileName)]),
        node('RelativeFilename', [string(map.fileName)]),
        node('ModelUVTranslation', [float64(0), float64(0)]),
        node('ModelUVScaling', [float64(1), float64(1)]),
        node('Texture_Alpha_Source', [string('None')]),
        node('Cropping', [int32(0), int32(0), int32(0), int32(0)]),
      ],
    ),
    node(
      'Video',
      [int64(videoId), string(`${label}\x00\x01Video`), string('Clip')],
      [
        node('Type', [string('Clip')]),
        properties70([
          node('P', [string('Path'), string('KString'), string('XRefUrl'), string(''), string(map.fileName)]),
        ]),
        node('UseMipMap', [int32(0)]),
        node('Filename', [string(map.fileName)]),
        node('RelativeFilename', [string(map.fileName)]),
        node('Content', [raw(Buffer.from(map.png.buffer, map.png.byteOffset, map.png.byteLength))]),
      ],
    ),
  ];
}
