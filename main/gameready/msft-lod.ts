// The glTF `MSFT_lod` extension (github.com/KhronosGroup/glTF/tree/main/extensions/2.0/Vendor/MSFT_lod), which
// gltf-transform does not ship: a node of the scene names, in `extensions.MSFT_lod.ids`, the nodes of its LOD1..n
// (outside the scene, so a viewer without the extension shows LOD0 only), and says in `extras.MSFT_screencoverage`
// the screen coverage (0..1 of the view's height) down to which LOD0..n show. Babylon.js and three.js read it.
import {
  Extension,
  type Document,
  type Mesh,
  type Node,
  type ReaderContext,
  type WriterContext,
} from '@gltf-transform/core';

export const MSFT_LOD = 'MSFT_lod';

export class MsftLod extends Extension {
  static override readonly EXTENSION_NAME = MSFT_LOD;
  override readonly extensionName = MSFT_LOD;
  /** Each LOD0 node's LOD1..n nodes. */
  readonly lods = new Map<Node, Node[]>();

  override read(context: ReaderContext): this {
    (context.jsonDoc.json.nodes ?? []).forEach((def, i) => {
      const ids = (def.extensions?.[MSFT_LOD] as { ids?: number[] } | undefined)?.ids;
      const node = context.nodes[i];
      if (node && Array.isArray(ids))
        this.lods.set(
          node,
          ids.map((id) => context.nodes[id]).filter((n): n is Node => n !== undefined),
        );
    });
    return this;
  }

  override write(context: WriterContext): this {
    const nodes = context.jsonDoc.json.nodes ?? [];
    for (const [node, lods] of this.lods) {
      const index = context.nodeIndexMap.get(node);
      const def = index === undefined ? undefined : nodes[index];
      if (!def) continue;
      const ids = lods.map((n) => context.nodeIndexMap.get(n)).filter((i): i is number => i !== undefined);
      def.extensions = { ...def.extensions, [MSFT_LOD]: { ids } };
    }
    return this;
  }
}

/**
 * For each scene node showing one of `chains`' meshes, a LOD node per level (the node's skin kept: a skinned
 * character's LODs move with its rig), outside the scene, listed by MSFT_lod, with the screen coverages
 * (`lod0Coverage`, then `coverages` per level) in the node's extras.
 */
export function attachLods(
  doc: Document,
  chains: readonly { mesh: Mesh; lods: Mesh[] }[],
  lod0Coverage: number,
  coverages: readonly number[],
): number {
  const ext = doc.createExtension(MsftLod);
  const byMesh = new Map(chains.map((c) => [c.mesh, c.lods]));
  const scene = doc.getRoot().getDefaultScene() ?? doc.getRoot().listScenes()[0];
  const nodes: Node[] = [];
  for (const child of scene?.listChildren() ?? []) child.traverse((n) => void nodes.push(n));
  let attached = 0;
  for (const node of nodes) {
    const lods = byMesh.get(node.getMesh()!);
    if (!lods || lods.length === 0) continue;
    const lodNodes = lods.map((mesh, i) => {
      const lodNode = doc
        .createNode(`${node.getName() || 'node'}_LOD${i + 1}`)
        .setMesh(mesh)
        .setMatrix(node.getMatrix());
      const skin = node.getSkin();
      return skin ? lodNode.setSkin(skin) : lodNode;
    });
    ext.lods.set(node, lodNodes);
    node.setExtras({ ...node.getExtras(), MSFT_screencoverage: [lod0Coverage, ...coverages] });
    attached += 1;
  }
  return attached;
}

/** The LOD nodes MSFT_lod lists for `node` in a document read with MsftLod registered; [] without. */
export function lodsOf(doc: Document, node: Node): Node[] {
  const ext = doc
    .getRoot()
    .listExtensionsUsed()
    .find((e): e is MsftLod => e instanceof MsftLod);
  return ext?.lods.get(node) ?? [];
}
