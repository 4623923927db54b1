// The parts every binary FBX 7.4 document of ours shares (fbx.ts's static mesh, fbx-skinned.ts's character):
// the header records, GlobalSettings (Y up, metres: UnitScaleFactor 100, one unit is 100 cm), a Layer naming
// its layer elements, a lambert Material of a base colour, and the object connections.
import {
  CREATION_TIME,
  FILE_ID,
  float64,
  int32,
  int64,
  node,
  properties70,
  property,
  raw,
  string,
  type FbxNode,
} from './fbx-binary.ts';

export const FBX_VERSION = 7400;

/**
 * FBXHeaderExtension, FileId, CreationTime, Creator and GlobalSettings; `creator` names the program. With
 * `originalUp`, GlobalSettings says the original up axis too; `settings` follow the unit scale (a time span).
 */
export function documentHead(creator: string, options: { originalUp?: boolean; settings?: FbxNode[] } = {}): FbxNode[] {
  return [
    node(
      'FBXHeaderExtension',
      [],
      [
        node('FBXHeaderVersion', [int32(1003)]),
        node('FBXVersion', [int32(FBX_VERSION)]),
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
        properties70([
          property('UpAxis', 'int', 'Integer', int32(1)),
          property('UpAxisSign', 'int', 'Integer', int32(1)),
          property('FrontAxis', 'int', 'Integer', int32(2)),
          property('FrontAxisSign', 'int', 'Integer', int32(1)),
          property('CoordAxis', 'int', 'Integer', int32(0)),
          property('CoordAxisSign', 'int', 'Integer', int32(1)),
          ...(options.originalUp
            ? [
                property('OriginalUpAxis', 'int', 'Integer', int32(1)),
                property('OriginalUpAxisSign', 'int', 'Integer', int32(1)),
              ]
            : []),
          property('UnitScaleFactor', 'double', 'Number', float64(100)), // one unit = 100 cm
          property('OriginalUnitScaleFactor', 'double', 'Number', float64(100)),
          ...(options.settings ?? []),
        ]),
      ],
    ),
  ];
}

/** A geometry's Layer 0, naming each of its layer elements (`LayerElementNormal`, …) by type. */
export function layer(types: string[]): FbxNode {
  return node(
    'Layer',
    [int32(0)],
    [
      node('Version', [int32(100)]),
      ...types.map((type) => node('LayerElement', [], [node('Type', [string(type)]), node('TypedIndex', [int32(0)])])),
    ],
  );
}

/** A lambert Material whose diffuse colour is `color` (linear RGB). */
export function lambertMaterial(id: bigint, name: string, color: readonly number[]): FbxNode {
  return node(
    'Material',
    [int64(id), string(`${name}\x00\x01Material`), string('')],
    [
      node('Version', [int32(102)]),
      node('ShadingModel', [string('lambert')]),
      node('MultiLayer', [int32(0)]),
      properties70([
        node('P', [
          string('DiffuseColor'),
          string('Color'),
          string(''),
          string('A'),
          float64(color[0]!),
          float64(color[1]!),
          float64(color[2]!),
        ]),
        node('P', [string('DiffuseFactor'), string('Number'), string(''), string('A'), float64(1)]),
      ]),
    ],
  );
}

/** Object `child` connected to object `parent` (0n: the scene's root). */
export const oo = (child: bigint, parent: bigint) => node('C', [string('OO'), int64(child), int64(parent)]);
/** Object `child` connected to the property `prop` of `parent`. */
export const op = (child: bigint, parent: bigint, prop: string) =>
  node('C', [string('OP'), int64(child), int64(parent), string(prop)]);
