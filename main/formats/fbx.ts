// Binary FBX 7.4 writer: one Geometry (with normals and UVs) under one Model, Y up, metres; with a material,
// a Material whose diffuse colour is its texture when it has one (a Texture connected to the Material's
// DiffuseColor, and a Video embedding the image's bytes as Content, so the FBX is whole: Blender, Unity and
// Unreal show the texture with no file beside it). Used by the engine's outputs and by the export (an FBX
// made from a transformed model).
import {
  bool,
  CREATION_TIME,
  FILE_ID,
  fbxFile,
  float64,
  float64Array,
  int32,
  int32Array,
  int64,
  layerElement,
  node,
  property,
  raw,
  string,
  type FbxNode,
} from './fbx-binary.ts';

type Vec3 = [number, number, number];

const VERSION = 7400;
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
    node(
      'FBXHeaderExtension',
      [],
      [
        node('FBXHeaderVersion', [int32(1003)]),
        node('FBXVersion', [int32(VERSION)]),
        node('Creator', [string(creator)]),
      ],
    ),
    node('FileId', [raw(FILE_ID)]),
    node('CreationTime', [string(CREATION_TIME)]),
    node('Creator', [string(creator)]),
    node(
      'GlobalSettings',
      [],
      [
        node('Version', [int32(1000)]),
        node(
          'Properties70',
          [],
          [
            property('UpAxis', 'int', 'Integer', int32(1)),
            property('UpAxisSign', 'int', 'Integer', int32(1)),
            property('FrontAxis', 'int', 'Integer', int32(2)),
            property('FrontAxisSign', 'int', 'Integer', int32(1)),
            property('CoordAxis', 'int', 'Integer', int32(0)),
            property('CoordAxisSign', 'int', 'Integer', int32(1)),
            property('UnitScaleFactor', 'double', 'Number', float64(100)), // one unit = 100 cm
            property('OriginalUnitScaleFactor', 'double', 'Number', float64(100)),
          ],
        ),
      ],
    ),
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
            ...(material ? [materialLayer()] : []),
            node(
              'Layer',
              [int32(0)],
              [
                node('Version', [int32(100)]),
                node(
                  'LayerElement',
                  [],
                  [node('Type', [string('LayerElementNormal')]), node('TypedIndex', [int32(0)])],
                ),
                node('LayerElement', [], [node('Type', [string('LayerElementUV')]), node('TypedIndex', [int32(0)])]),
                ...(material
                  ? [
                      node(
                        'LayerElement',
                        [],
                        [node('Type', [string('LayerElementMaterial')]), node('TypedIndex', [int32(0)])],
                      ),
                    ]
                  : []),
              ],
            ),
          ],
        ),
        node(
          'Model',
          [int64(MODEL_ID), string('model\x00\x01Model'), string('Mesh')],
          [node('Version', [int32(232)]), node('Shading', [bool(true)]), node('Culling', [string('CullingOff')])],
        ),
        ...(material ? [materialNode(material.color)] : []),
        ...(texture ? textureNodes(texture) : []),
      ],
    ),
    node(
      'Connections',
      [],
      [
        node('C', [string('OO'), int64(MODEL_ID), int64(0n)]),
        node('C', [string('OO'), int64(GEOMETRY_ID), int64(MODEL_ID)]),
        ...(material ? [node('C', [string('OO'), int64(MATERIAL_ID), int64(MODEL_ID)])] : []),
        ...(texture
          ? [
              node('C', [string('OP'), int64(TEXTURE_ID), int64(MATERIAL_ID), string('DiffuseColor')]),
              node('C', [string('OO'), int64(VIDEO_ID), int64(TEXTURE_ID)]),
            ]
          : []),
      ],
    ),
  ];

  return fbxFile(root, VERSION);
}

/** One material for every polygon. */
function materialLayer(): FbxNode {
  return node(
    'LayerElementMaterial',
    [int32(0)],
    [
      node('Version', [int32(101)]),
      node('Name', [string('')]),
      node('MappingInformationType', [string('AllSame')]),
      node('ReferenceInformationType', [string('IndexToDirect')]),
      node('Materials', [int32Array(Int32Array.of(0))]),
    ],
  );
}

function materialNode(color: Vec3): FbxNode {
  return node(
    'Material',
    [int64(MATERIAL_ID), string('material\x00\x01Material'), string('')],
    [
      node('Version', [int32(102)]),
      node('ShadingModel', [string('lambert')]),
      node('MultiLayer', [int32(0)]),
      node(
        'Properties70',
        [],
        [
          node('P', [
            string('DiffuseColor'),
            string('Color'),
            string(''),
            string('A'),
            float64(color[0]),
            float64(color[1]),
            float64(color[2]),
          ]),
          node('P', [string('DiffuseFactor'), string('Number'), string(''), string('A'), float64(1)]),
        ],
      ),
    ],
  );
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
        node(
          'Properties70',
          [],
          [node('P', [string('Path'), string('KString'), string('XRefUrl'), string(''), string(texture.fileName)])],
        ),
        node('UseMipMap', [int32(0)]),
        node('Filename', [string(texture.fileName)]),
        node('RelativeFilename', [string(texture.fileName)]),
        node('Content', [raw(texture.png)]),
      ],
    ),
  ];
}
