// Binary FBX 7.4 of a skinned character with its animations, as the mesh-animation service delivers them: one
// Geometry (triangles, normals, a material per part) under a Mesh Model; every bone a LimbNode Model (with its
// NodeAttribute) at its rest transform; a Skin deformer with one Cluster per bone (the vertices it moves and
// their weights, Transform and TransformLink: the bind pose), a BindPose; and each take an AnimationStack
// named after it (a prompt's text, a library label) with its AnimationLayer, one AnimationCurveNode per
// animated property (Lcl Rotation as XYZ Euler degrees, Lcl Translation) and an AnimationCurve per axis, keyed
// in FBX time (46186158000 ticks a second). Y up, metres (UnitScaleFactor 100: one unit is 100 cm).
// Blender's importer makes of it an armature with the mesh bound by an Armature modifier and vertex groups,
// and one action per take; Unity and Unreal (FBX SDK) import the rig and each take as a clip.
import {
  fbxFile,
  float32Array,
  float64,
  float64Array,
  int32,
  int32Array,
  int64,
  int64Array,
  layerElement,
  node,
  properties70,
  property,
  string,
  type FbxNode,
} from './fbx-binary.ts';
import { documentHead, FBX_VERSION, lambertMaterial, layer, oo, op } from './fbx-document.ts';
import type { SkinnedCharacter } from './character.ts';
import { compose, invertRigid, localRest, normalizeQ, type Quat, rotationMatrix, type V3 } from './rig-math.ts';

/** FBX time units in a second. */
export const FBX_KTIME = 46_186_158_000n;
const FPS = 24;
/** FBX's time mode for 24 frames a second (eFrames24). */
const TIME_MODE_24 = 11;

export interface SkinnedFbxOptions {
  /**
   * The skeleton and the takes only, no mesh, skin or materials: an animation file that finds its model's rig by
   * the bones' names (Unity's `<Model>@<clip>.fbx`, whose clips the model's avatar plays).
   */
  rigOnly?: boolean;
}

/** The FBX file of `character`; `creator` names the program in its header. */
export function writeSkinnedFbx(character: SkinnedCharacter, creator: string, options: SkinnedFbxOptions = {}): Buffer {
  const withMesh = options.rigOnly !== true;
  let next = 2_000_000n;
  const id = () => next++;
  const { bones } = character;
  const vertexCount = character.positions.length / 3;

  const geometryId = id();
  const meshId = id();
  const skinId = id();
  const poseId = id();
  const materialIds = character.parts.map(() => id());
  const boneIds = bones.map(() => id());
  const attributeIds = bones.map(() => id());
  const clusterIds = bones.map(() => id());

  const world = bones.map((b) => compose(b.t, b.r));
  const local = localRest(bones);

  // ---- the skin: per bone, the vertices it moves and how much ----
  const influence = bones.map(() => ({ indexes: [] as number[], weights: [] as number[] }));
  for (let v = 0; v < vertexCount; v++) {
    for (let k = 0; k < 4; k++) {
      const w = character.weights[v * 4 + k]!;
      const b = character.joints[v * 4 + k]!;
      if (w > 0 && influence[b]) {
        influence[b].indexes.push(v);
        influence[b].weights.push(w);
      }
    }
  }

  // ---- the geometry: triangles, the last corner of each stored as -(index + 1) ----
  const polygon: number[] = [];
  const materialOfPolygon: number[] = [];
  for (const [m, part] of character.parts.entries()) {
    for (let k = 0; k + 2 < part.indices.length; k += 3) {
      polygon.push(part.indices[k]!, part.indices[k + 1]!, -(part.indices[k + 2]! + 1));
      materialOfPolygon.push(m);
    }
  }

  const meshObjects: FbxNode[] = [
    node(
      'Geometry',
      [int64(geometryId), string(`${character.name}\x00\x01Geometry`), string('Mesh')],
      [
        properties70([]),
        node('GeometryVersion', [int32(124)]),
        node('Vertices', [float64Array(character.positions)]),
        node('PolygonVertexIndex', [int32Array(polygon)]),
        layerElement('LayerElementNormal', 'Normals', float64Array(character.normals)),
        layerElement('LayerElementMaterial', 'Materials', int32Array(materialOfPolygon), 'ByPolygon', 'IndexToDirect'),
        layer(['LayerElementNormal', 'LayerElementMaterial']),
      ],
    ),
    model(meshId, character.name, 'Mesh', [0, 0, 0], [0, 0, 0, 1]),
    ...character.parts.map((part, i) =>
      lambertMaterial(
        materialIds[i]!,
        part.name,
        part.color.map((x) => Math.min(1, Math.max(0, x))),
      ),
    ),
  ];
  const boneObjects: FbxNode[] = [
    ...bones.flatMap((b, i) => [
      model(boneIds[i]!, b.name, 'LimbNode', local[i]!.t, local[i]!.r),
      node(
        'NodeAttribute',
        [int64(attributeIds[i]!), string(`${b.name}\x00\x01NodeAttribute`), string('LimbNode')],
        [properties70([property('Size', 'double', 'Number', float64(1))]), node('TypeFlags', [string('Skeleton')])],
      ),
    ]),
  ];
  const skinObjects: FbxNode[] = [
    node(
      'Deformer',
      [int64(skinId), string(`${character.name}\x00\x01Deformer`), string('Skin')],
      [node('Version', [int32(101)]), node('Link_DeformAcuracy', [float64(50)])],
    ),
    ...bones.map((b, i) =>
      node(
        'Deformer',
        [int64(clusterIds[i]!), string(`${b.name}\x00\x01SubDeformer`), string('Cluster')],
        [
          node('Version', [int32(100)]),
          node('UserData', [string(''), string('')]),
          ...(influence[i]!.indexes.length > 0
            ? [
                node('Indexes', [int32Array(influence[i]!.indexes)]),
                node('Weights', [float64Array(influence[i]!.weights)]),
              ]
            : []),
          // The mesh's transform in the bone's bind space (the mesh is at the origin), and the bone's at bind.
          node('Transform', [float64Array(invertRigid(world[i]!))]),
          node('TransformLink', [float64Array(world[i]!)]),
        ],
      ),
    ),
    node(
      'Pose',
      [int64(poseId), string(`${character.name}\x00\x01Pose`), string('BindPose')],
      [
        node('Type', [string('BindPose')]),
        node('Version', [int32(100)]),
        node('NbPoseNodes', [int32(bones.length + 1)]),
        poseNode(meshId, compose([0, 0, 0], [0, 0, 0, 1])),
        ...bones.map((_, i) => poseNode(boneIds[i]!, world[i]!)),
      ],
    ),
  ];
  const objects: FbxNode[] = withMesh ? [...meshObjects, ...boneObjects, ...skinObjects] : boneObjects;
  const connections: FbxNode[] = [
    ...(withMesh ? [oo(meshId, 0n), oo(geometryId, meshId), ...materialIds.map((m) => oo(m, meshId))] : []),
    ...bones.map((b, i) => oo(boneIds[i]!, b.parent < 0 ? 0n : boneIds[b.parent]!)),
    ...bones.map((_, i) => oo(attributeIds[i]!, boneIds[i]!)),
    ...(withMesh
      ? [
          oo(skinId, geometryId),
          ...bones.map((_, i) => oo(clusterIds[i]!, skinId)),
          ...bones.map((_, i) => oo(boneIds[i]!, clusterIds[i]!)),
        ]
      : []),
  ];

  // ---- the takes ----
  let longest = 0n;
  const takeList: FbxNode[] = [];
  for (const take of character.takes) {
    const stackId = id();
    const layerId = id();
    const times = Array.from(take.times, (t) => BigInt(Math.round(t * Number(FBX_KTIME))));
    const stop = times.at(-1) ?? 0n;
    if (stop > longest) longest = stop;
    takeList.push(
      node(
        'Take',
        [string(take.name)],
        [
          node('FileName', [string(`${take.name}.tak`)]),
          node('LocalTime', [int64(0n), int64(stop)]),
          node('ReferenceTime', [int64(0n), int64(stop)]),
        ],
      ),
    );
    objects.push(
      node(
        'AnimationStack',
        [int64(stackId), string(`${take.name}\x00\x01AnimStack`), string('')],
        [
          properties70([
            property('LocalStart', 'KTime', 'Time', int64(0n)),
            property('LocalStop', 'KTime', 'Time', int64(stop)),
            property('ReferenceStart', 'KTime', 'Time', int64(0n)),
            property('ReferenceStop', 'KTime', 'Time', int64(stop)),
          ]),
        ],
      ),
      // Named as its stack: Blender then names its actions `<armature>|<take>`.
      node('AnimationLayer', [int64(layerId), string(`${take.name}\x00\x01AnimLayer`), string('')], []),
    );
    connections.push(oo(layerId, stackId));
    for (const track of take.tracks) {
      const channels: [string, string, number[][]][] = [];
      if (track.rotations) channels.push(['R', 'Lcl Rotation', eulerKeys(track.rotations)]);
      if (track.translations) {
        const axes: number[][] = [[], [], []];
        for (let k = 0; k < times.length; k++)
          for (let a = 0; a < 3; a++) axes[a]!.push(track.translations[k * 3 + a]!);
        channels.push(['T', 'Lcl Translation', axes]);
      }
      for (const [short, prop, axes] of channels) {
        const curveNodeId = id();
        objects.push(
          node(
            'AnimationCurveNode',
            [int64(curveNodeId), string(`${short}\x00\x01AnimCurveNode`), string('')],
            [
              properties70(
                ['X', 'Y', 'Z'].map((axis, a) =>
                  node('P', [
                    string(`d|${axis}`),
                    string('Number'),
                    string(''),
                    string('A'),
                    float64(axes[a]![0] ?? 0),
                  ]),
                ),
              ),
            ],
          ),
        );
        connections.push(oo(curveNodeId, layerId), op(curveNodeId, boneIds[track.bone]!, prop));
        for (const [a, axis] of ['X', 'Y', 'Z'].entries()) {
          const curveId = id();
          const values = axes[a]!;
          objects.push(
            node(
              'AnimationCurve',
              [int64(curveId), string('\x00\x01AnimCurve'), string('')],
              [
                node('Default', [float64(values[0] ?? 0)]),
                node('KeyVer', [int32(4008)]),
                node('KeyTime', [int64Array(times)]),
                node('KeyValueFloat', [float32Array(values)]),
                // Linear keys (interpolation 2 << 2 would be cubic's neighbour): one attribute shared by every key.
                node('KeyAttrFlags', [int32Array([(1 << 2) | (1 << 8) | (1 << 13) | (1 << 14)])]),
                node('KeyAttrDataFloat', [float32Array([0, 0, 9.419963346924634e-30, 0])]),
                node('KeyAttrRefCount', [int32Array([times.length])]),
              ],
            ),
          );
          connections.push(op(curveId, curveNodeId, `d|${axis}`));
        }
      }
    }
  }

  const counts: [string, number][] = [
    ['GlobalSettings', 1],
    ['Model', (withMesh ? 1 : 0) + bones.length],
    ['NodeAttribute', bones.length],
    ['Geometry', withMesh ? 1 : 0],
    ['Material', withMesh ? character.parts.length : 0],
    ['Deformer', withMesh ? 1 + bones.length : 0],
    ['Pose', withMesh ? 1 : 0],
    ['AnimationStack', character.takes.length],
    ['AnimationLayer', character.takes.length],
    ['AnimationCurveNode', objects.filter((o) => o.name === 'AnimationCurveNode').length],
    ['AnimationCurve', objects.filter((o) => o.name === 'AnimationCurve').length],
  ];
  const root: FbxNode[] = [
    ...documentHead(creator, {
      originalUp: true,
      settings: [
        property('TimeMode', 'enum', '', int32(TIME_MODE_24)),
        property('TimeSpanStart', 'KTime', 'Time', int64(0n)),
        property('TimeSpanStop', 'KTime', 'Time', int64(longest)),
        property('CustomFrameRate', 'double', 'Number', float64(FPS)),
      ],
    }),
    node('Documents', [], [node('Count', [int32(0)])]),
    node('References', []),
    node(
      'Definitions',
      [],
      [
        node('Version', [int32(100)]),
        node('Count', [int32(counts.reduce((n, [, c]) => n + c, 0))]),
        ...counts
          .filter(([, c]) => c > 0)
          .map(([type, c]) => node('ObjectType', [string(type)], [node('Count', [int32(c)])])),
      ],
    ),
    node('Objects', [], objects),
    node('Connections', [], connections),
    // The takes again, as FBX 6 listed them: older readers of the FBX SDK look for them here.
    node('Takes', [], [node('Current', [string('')]), ...takeList]),
  ];
  return fbxFile(root, FBX_VERSION);
}

function model(id: bigint, name: string, type: 'Mesh' | 'LimbNode', t: V3, r: Quat): FbxNode {
  const euler = quatToEulerXYZ(r);
  return node(
    'Model',
    [int64(id), string(`${name}\x00\x01Model`), string(type)],
    [
      node('Version', [int32(232)]),
      properties70([
        property('RotationActive', 'bool', '', int32(1)),
        property('InheritType', 'enum', '', int32(1)),
        property('DefaultAttributeIndex', 'int', 'Integer', int32(0)),
        vector('Lcl Translation', t),
        vector('Lcl Rotation', euler),
        vector('Lcl Scaling', [1, 1, 1]),
      ]),
      node('Shading', [string('T')]),
      node('Culling', [string('CullingOff')]),
    ],
  );
}

function vector(name: string, v: V3): FbxNode {
  return node('P', [string(name), string(name), string(''), string('A'), float64(v[0]), float64(v[1]), float64(v[2])]);
}

function poseNode(id: bigint, matrix: number[]): FbxNode {
  return node('PoseNode', [], [node('Node', [int64(id)]), node('Matrix', [float64Array(matrix)])]);
}

// ---- rotations -----------------------------------------------------------------------------------

const DEG = 180 / Math.PI;

/**
 * FBX's XYZ Euler angles in degrees (R = Rz·Ry·Rx: X turns first), the solution nearest `near` (the previous key)
 * when given, each angle moved by whole turns to be close to it, so that keys interpolate the short way.
 */
export function quatToEulerXYZ(q: Quat, near?: V3): V3 {
  const m = rotationMatrix(normalizeQ(q));
  const sy = -m[2]![0]!;
  let a: V3;
  if (Math.abs(sy) < 0.999999) {
    const beta = Math.asin(Math.max(-1, Math.min(1, sy)));
    a = [Math.atan2(m[2]![1]!, m[2]![2]!) * DEG, beta * DEG, Math.atan2(m[1]![0]!, m[0]![0]!) * DEG];
  } else {
    // Gimbal lock: X and Z turn about the same axis; all of it on Z.
    a = [0, sy > 0 ? 90 : -90, Math.atan2(-m[0]![1]!, m[1]![1]!) * DEG];
  }
  if (near === undefined) return a;
  const b: V3 = [a[0] + 180, 180 - a[1], a[2] + 180]; // the same rotation
  const wrap = (v: V3): V3 => v.map((x, i) => x + 360 * Math.round((near[i]! - x) / 360)) as V3;
  const [wa, wb] = [wrap(a), wrap(b)];
  const dist = (v: V3) => Math.abs(v[0] - near[0]) + Math.abs(v[1] - near[1]) + Math.abs(v[2] - near[2]);
  return dist(wa) <= dist(wb) ? wa : wb;
}

/** The X, Y and Z curves of rotation keys (xyzw each), continuous from key to key. */
function eulerKeys(rotations: ArrayLike<number>): number[][] {
  const axes: number[][] = [[], [], []];
  let previous: V3 | undefined;
  for (let k = 0; k + 3 < rotations.length; k += 4) {
    const e = quatToEulerXYZ([rotations[k]!, rotations[k + 1]!, rotations[k + 2]!, rotations[k + 3]!], previous);
    for (let a = 0; a < 3; a++) axes[a]!.push(e[a]!);
    previous = e;
  }
  return axes;
}
