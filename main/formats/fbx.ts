// Binary FBX 7.4 writer: one Geometry (with normals and UVs) under one Model, Y up, metres; with a material,
// a Material whose diffuse colour is its texture when it has one (a Texture connected to the Material's
// DiffuseColor, and a Video embedding the image's bytes as Content, so the FBX is whole: Blender, Unity and
// Unreal show the texture with no file beside it). Used by the engine's outputs and by the export (an FBX
// made from a transformed model).
import { deflateSync } from 'node:zlib';

type Vec3 = [number, number, number];

interface FbxNode {
  name: string;
  props: Buffer[];
  children: FbxNode[];
}

const VERSION = 7400;
const MAGIC = Buffer.from('Kaydara FBX Binary  \x00\x1a\x00', 'latin1');
const NULL_RECORD = Buffer.alloc(13);
// FileId, CreationTime and the footer id must agree; these are the fixed values Blender writes.
const FILE_ID = Buffer.from('28b32aebb624ccc2bfc8b02aa92bfcf1', 'hex');
const CREATION_TIME = '1970-01-01 10:00:00:000';
const FOOTER_ID = Buffer.from('fabcab09d0c8d466b176fb831cf7267e', 'hex');
const FOOTER_MAGIC = Buffer.from('f85a8c6adef5d97eece90ce3758f290b', 'hex');
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

  const parts: Buffer[] = [MAGIC, u32(VERSION)];
  let offset = MAGIC.length + 4;
  for (const n of root) {
    const bytes = encodeNode(n, offset);
    parts.push(bytes);
    offset += bytes.length;
  }
  parts.push(NULL_RECORD, FOOTER_ID, Buffer.alloc(4));
  offset += NULL_RECORD.length + FOOTER_ID.length + 4;
  parts.push(Buffer.alloc(16 - (offset % 16)), u32(VERSION), Buffer.alloc(120), FOOTER_MAGIC); // pad 1..16 bytes
  return Buffer.concat(parts);
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

/** A node record whose end offset is absolute, so it needs the offset where it starts. */
function encodeNode(n: FbxNode, start: number): Buffer {
  const name = Buffer.from(n.name, 'latin1');
  const props = Buffer.concat(n.props);
  const body: Buffer[] = [];
  let offset = start + 13 + name.length + props.length;
  for (const child of n.children) {
    const bytes = encodeNode(child, offset);
    body.push(bytes);
    offset += bytes.length;
  }
  // A nested list ends with a null record; so does a node with neither properties nor children.
  if (n.children.length > 0 || n.props.length === 0) {
    body.push(NULL_RECORD);
    offset += NULL_RECORD.length;
  }
  const head = Buffer.alloc(13);
  head.writeUInt32LE(offset, 0);
  head.writeUInt32LE(n.props.length, 4);
  head.writeUInt32LE(props.length, 8);
  head.writeUInt8(name.length, 12);
  return Buffer.concat([head, name, props, ...body]);
}

function node(name: string, props: Buffer[], children: FbxNode[] = []): FbxNode {
  return { name, props, children };
}

/** A Properties70 entry: P: "name", "type", "label", "", value. */
function property(name: string, type: string, label: string, value: Buffer): FbxNode {
  return node('P', [string(name), string(type), string(label), string(''), value]);
}

/** Per-vertex data (control points map one-to-one to our vertices). */
function layerElement(name: string, dataName: string, data: Buffer): FbxNode {
  return node(
    name,
    [int32(0)],
    [
      node('Version', [int32(101)]),
      node('Name', [string('')]),
      node('MappingInformationType', [string('ByVertice')]),
      node('ReferenceInformationType', [string('Direct')]),
      node(dataName, [data]),
    ],
  );
}

// ---- property records: a type code followed by the value --------------------------------------

function typed(code: string, value: Buffer): Buffer {
  return Buffer.concat([Buffer.from(code, 'latin1'), value]);
}

const u32 = (v: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(v);
  return b;
};
const bool = (v: boolean) => typed('C', Buffer.from([v ? 1 : 0]));
const int32 = (v: number) => {
  const b = Buffer.alloc(4);
  b.writeInt32LE(v);
  return typed('I', b);
};
const int64 = (v: bigint) => {
  const b = Buffer.alloc(8);
  b.writeBigInt64LE(v);
  return typed('L', b);
};
const float64 = (v: number) => {
  const b = Buffer.alloc(8);
  b.writeDoubleLE(v);
  return typed('D', b);
};
const string = (v: string) => {
  const bytes = Buffer.from(v, 'utf8');
  return typed('S', Buffer.concat([u32(bytes.length), bytes]));
};
const raw = (v: Buffer) => typed('R', Buffer.concat([u32(v.length), v]));

/** Arrays are stored zlib-compressed (encoding 1): length, encoding, compressed size, data. */
function array(code: string, values: Float64Array | Int32Array): Buffer {
  const data = deflateSync(Buffer.from(values.buffer, values.byteOffset, values.byteLength));
  return typed(code, Buffer.concat([u32(values.length), u32(1), u32(data.length), data]));
}
const float64Array = (v: Float32Array) => array('d', Float64Array.from(v));
const int32Array = (v: Int32Array) => array('i', v);
