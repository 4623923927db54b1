// A BVH motion file read into its joints and frames, and forward kinematics: each joint's world rotation and
// position at a frame. Used by scripts/build-motions.ts only (the engine reads the compact clips it writes).
import { mul, rotate, add, axisAngle, type Quat, type V3, IDENTITY } from '../../main/formats/rig-math.ts';

export interface BvhJoint {
  name: string;
  parent: number;
  offset: V3;
  /** Channel names in file order, e.g. Xposition … Zrotation. */
  channels: string[];
  /** Index of this joint's first channel in a frame's values. */
  first: number;
}

export interface Bvh {
  joints: BvhJoint[];
  frameTime: number;
  frames: Float32Array[];
}

export function parseBvh(text: string): Bvh {
  const tokens = text.split(/\s+/).filter(Boolean);
  let i = 0;
  const joints: BvhJoint[] = [];
  const stack: number[] = [];
  let channelCount = 0;
  const expect = (word: string) => {
    if (tokens[i] !== word) throw new Error(`BVH: expected ${word} at token ${i}, found ${tokens[i]}`);
    i++;
  };
  expect('HIERARCHY');
  while (i < tokens.length && tokens[i] !== 'MOTION') {
    const t = tokens[i++]!;
    if (t === 'ROOT' || t === 'JOINT') {
      const name = tokens[i++]!;
      expect('{');
      expect('OFFSET');
      const offset: V3 = [Number(tokens[i]), Number(tokens[i + 1]), Number(tokens[i + 2])];
      i += 3;
      expect('CHANNELS');
      const n = Number(tokens[i++]);
      const channels = tokens.slice(i, i + n);
      i += n;
      joints.push({ name, parent: stack.at(-1) ?? -1, offset, channels, first: channelCount });
      channelCount += n;
      stack.push(joints.length - 1);
    } else if (t === 'End') {
      // End Site { OFFSET x y z }
      i++;
      expect('{');
      expect('OFFSET');
      i += 3;
      expect('}');
    } else if (t === '}') {
      stack.pop();
    } else throw new Error(`BVH: unexpected token ${t}`);
  }
  expect('MOTION');
  expect('Frames:');
  const count = Number(tokens[i++]);
  expect('Frame');
  expect('Time:');
  const frameTime = Number(tokens[i++]);
  const frames: Float32Array[] = [];
  for (let f = 0; f < count; f++) {
    frames.push(Float32Array.from(tokens.slice(i, i + channelCount), Number));
    i += channelCount;
  }
  return { joints, frameTime, frames };
}

const AXIS: Record<string, V3> = { X: [1, 0, 0], Y: [0, 1, 0], Z: [0, 0, 1] };

export interface WorldPose {
  rotation: Quat[];
  position: V3[];
}

/** Each joint's world rotation and position at one frame (rotations applied in channel order, intrinsic). */
export function worldPose(bvh: Bvh, frame: Float32Array): WorldPose {
  const rotation: Quat[] = [];
  const position: V3[] = [];
  for (const joint of bvh.joints) {
    let local: Quat = IDENTITY;
    let translation: V3 = joint.offset;
    joint.channels.forEach((channel, c) => {
      const value = frame[joint.first + c]!;
      const axis = channel[0]!;
      if (channel.endsWith('rotation')) local = mul(local, axisAngle(AXIS[axis]!, (value * Math.PI) / 180));
      else if (channel.endsWith('position')) {
        const k = axis === 'X' ? 0 : axis === 'Y' ? 1 : 2;
        translation = [...translation] as V3;
        translation[k] += value;
      }
    });
    if (joint.parent < 0) {
      rotation.push(local);
      position.push(translation);
    } else {
      rotation.push(mul(rotation[joint.parent]!, local));
      position.push(add(position[joint.parent]!, rotate(rotation[joint.parent]!, translation)));
    }
  }
  return { rotation, position };
}
