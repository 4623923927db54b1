// Binary FBX 7.4 writer: one Geometry (with normals and UVs) under one Model, Y up, metres; with a material,
// a Material whose diffuse colour is its texture when it has one (a Texture connected to the Material's
// DiffuseColor, and a Video embedding the image's bytes as Content, so the FBX is whole: Blender, Unity and
// Unreal show the texture with no file beside it). Used by the engine's outputs and by the export (an FBX
// made from a transformed model).
import {
  bool,
  fbxFile,
  float64,
  float64Array,
  int32,
  int32Array,
  int64,
  layerElement,
  node,
  properties70,
  raw,
  string,
  type FbxNode,
} from './fbx-binary.ts';
import { documentHead, FBX_VERSION, lambertMaterial, layer, oo, op } from './fbx-document.ts';

type Vec3 = [number, number, number];

const GEOMETRY_ID = 1_000_001n;
const MODEL_ID = 1_000_002n;
const MATERIAL_ID = 1_000_003n;
const TEXTURE_ID = 1_000_004n;
const VIDEO_ID = 1_000_005n;

/** What the document holds: per-vertex data, polygons (the last index of each stored as -(index + 1)), and a material. */
export interface FbxContent {
  positions: Float32Array;
  normals: Float32Array;
  /** glTF convention (v down); FBX's v grows upwards. */
  uvs: Float32Array;
  polygonVertexIndex: Int32Array;
  material?: { color: Vec3; texture?: { png: Buffer; fileName: string } };
}

/** The FBX file of `content`; `creator` names the program in its header. */
export function writeFbx(content: FbxContent, creator: string): Buffer {
  return fbxDocument(content, creator);
}

function fbxDocument(content: FbxContent, creator: string): Buffer {
  const { material } = content;
  const texture = material?.texture;
  const root: FbxNode[] = [
    ...documentHead(creator),
    node(
      'Objects',
      [],
      [
        node(
          'Geometry',
          [int64(GEOMETRY_ID), string('model\x00\x01Geometry'), string('Mesh')],
          [
            node('Vertices', [float64Array(content.positions)]),
            node('PolygonVertexIndex', [int32Array(content.polygonVertexIndex)]),
            node('GeometryVersion', [int32(124)]),
            layerElement('LayerElementNormal', 'Normals', float64Array(content.normals)),
            layerElement('LayerElementUV', 'UV', float64Array(content.uvs.map((x, k) => (k % 2 ? 1 - x : x)))), // v up
            ...(material
              ? [
                  // One material for every polygon.
                  layerElement(
                    'LayerElementMaterial',
                    'Materials',
                    int32Array(Int32Array.of(0)),
                    'AllSame',
                    'IndexToDirect',
                  ),
                ]
              : []),
            layer(['LayerElementNormal', 'LayerElementUV', ...(material ? ['LayerElementMaterial'] : [])]),
          ],
        ),
        node(
          'Model',
          [int64(MODEL_ID), string('model\x00\x01Model'), string('Mesh')],
          [node('Version', [int32(232)]), node('Shading', [bool(true)]), node('Culling', [string('CullingOff')])],
        ),
        ...(material ? [lambertMaterial(MATERIAL_ID, 'material', material.color)] : []),
        ...(texture ? textureNodes(texture) : []),
      ],
    ),
    node(
      'Connections',
      [],
      [
        oo(MODEL_ID, 0n),
        oo(GEOMETRY_ID, MODEL_ID),
        ...(material ? [oo(MATERIAL_ID, MODEL_ID)] : []),
        ...(texture ? [op(TEXTURE_ID, MATERIAL_ID, 'DiffuseColor'), oo(VIDEO_ID, TEXTURE_ID)] : []),
      ],
    ),
  ];

  return fbxFile(root, FBX_VERSION);
}

/** The base-colour texture and the Video that embeds its PNG (Content), named `fileName` for tools that look beside the file. */
function textureNodes(texture: { png: Buffer; fileName: string }): FbxNode[] {
  return [
    node(
      'Texture',
      [int64(TEXTURE_ID), string('texture\x00\x01Texture'), string('')],
      [
        node('Type', [string('TextureVideoClip')]),
        node('Version', [int32(202)]),
        node('TextureName', [string('texture\x00\x01Texture')]),
        node('Media', [string('texture\x00\x01Video')]),
        node('FileName', [string(texture.fileName)]),
        node('RelativeFilename', [string(texture.fileName)]),
        node('ModelUVTranslation', [float64(0), float64(0)]),
        node('ModelUVScaling', [float64(1), float64(1)]),
        node('Texture_Alpha_Source', [string('None')]),
        node('Cropping', [int32(0), int32(0), int32(0), int32(0)]),
      ],
    ),
    node(
      'Video',
      [int64(VIDEO_ID), string('texture\x00\x01Video'), string('Clip')],
      [
        node('Type', [string('Clip')]),
        properties70([
          node('P', [string('Path'), string('KString'), string('XRefUrl'), string(''), string(texture.fileName)]),
        ]),
        node('UseMipMap', [int32(0)]),
        node('Filename', [string(texture.fileName)]),
        node('RelativeFilename', [string(texture.fileName)]),
        node('Content', [raw(texture.png)]),
      ],
    ),
  ];
}
