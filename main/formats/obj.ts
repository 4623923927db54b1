// Wavefront OBJ + MTL writer: triangles grouped by material (`usemtl`), with per-vertex positions, texture
// coordinates and normals; the MTL gives each material its base colour and, when it has one, its
// base-colour texture (`map_Kd <file>`), a file the caller writes beside it.

export interface ObjMaterial {
  name: string;
  /** Base colour (linear glTF factor, each in [0, 1]). */
  color: [number, number, number];
  opacity: number;
  /** The texture file the MTL names (beside the MTL). */
  texture?: string;
}

export interface ObjGroup {
  /** Index into the materials. */
  material: number;
  positions: Float32Array;
  normals: Float32Array;
  /** glTF convention (v grows downwards); OBJ's v grows upwards. */
  uvs: Float32Array;
  /** Triangles, three vertex indices each (0-based, into this group's arrays). */
  triangles: Uint32Array;
}

/** The OBJ text (naming `<name>.mtl`) and the MTL text. `header` goes in a comment at the top of both. */
export function writeObj(
  name: string,
  groups: readonly ObjGroup[],
  materials: readonly ObjMaterial[],
  header: string,
): { obj: string; mtl: string } {
  const lines = [`# ${header}`, `mtllib ${name}.mtl`, `o ${name}`];
  let base = 1;
  for (const g of groups) {
    const count = g.positions.length / 3;
    for (let i = 0; i < count; i++)
      lines.push(`v ${num(g.positions[3 * i]!)} ${num(g.positions[3 * i + 1]!)} ${num(g.positions[3 * i + 2]!)}`);
    for (let i = 0; i < count; i++) lines.push(`vt ${num(g.uvs[2 * i]!)} ${num(1 - g.uvs[2 * i + 1]!)}`);
    for (let i = 0; i < count; i++)
      lines.push(`vn ${num(g.normals[3 * i]!)} ${num(g.normals[3 * i + 1]!)} ${num(g.normals[3 * i + 2]!)}`);
    lines.push(`usemtl ${materials[g.material]!.name}`);
    for (let t = 0; t < g.triangles.length; t += 3) {
      const corner = (k: number) => {
        const v = base + g.triangles[t + k]!;
        return `${v}/${v}/${v}`;
      };
      lines.push(`f ${corner(0)} ${corner(1)} ${corner(2)}`);
    }
    base += count;
  }
  const mtl = [`# ${header}`];
  for (const m of materials) {
    mtl.push(
      '',
      `newmtl ${m.name}`,
      `Kd ${m.color.map(num).join(' ')}`,
      'Ka 0 0 0',
      'Ks 0 0 0',
      `d ${num(m.opacity)}`,
      'illum 1',
    );
    if (m.texture !== undefined) mtl.push(`map_Kd ${m.texture}`);
  }
  return { obj: `${lines.join('\n')}\n`, mtl: `${mtl.join('\n')}\n` };
}

/** Six significant decimals, no `-0`, no exponent for small values. */
function num(v: number): string {
  const r = Math.round(v * 1e6) / 1e6;
  return Object.is(r, -0) ? '0' : String(r);
}
