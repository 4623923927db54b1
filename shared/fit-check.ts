// The engine-fit check's report: what `asset-studio check --json` prints, what the bridge's check command answers
// and what the export panel, the job page and the review board show. One home for its shape; main/gameready/
// computes it.
import * as z from 'zod';

export const SEVERITIES = ['error', 'warning', 'info'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** A fix the export applies when the user asks for it (or the profile does), in words and as data. */
export const fixSchema = z
  .object({
    /** What a button or the CLI calls it: "Make LODs", "Resize to 1024", "Set height 0.12 m". */
    label: z.string().min(1),
    /** Machine-readable: which fix (`lods`, `resize-textures`, `scale`, `pivot`, `up-axis`, …). */
    kind: z.string().min(1),
  })
  .passthrough();
export type Fix = z.infer<typeof fixSchema>;

export const findingSchema = z.object({
  /** Stable code, e.g. `triangles-over-budget`, `texture-too-large`, `size-unknown`, `pivot-centre`. */
  code: z.string().min(1),
  severity: z.enum(SEVERITIES),
  /** A plain sentence a user can act on. */
  message: z.string().min(1),
  fix: fixSchema.nullable(),
});
export type Finding = z.infer<typeof findingSchema>;

export const fitReportSchema = z.object({
  profile: z.string(),
  findings: z.array(findingSchema),
});
export type FitReport = z.infer<typeof fitReportSchema>;

/** The verdict of a report: fails with any error, passes otherwise (warnings shown). */
export function verdictOf(report: Pick<FitReport, 'findings'>): 'fails' | 'warnings' | 'fits' {
  if (report.findings.some((f) => f.severity === 'error')) return 'fails';
  return report.findings.some((f) => f.severity === 'warning') ? 'warnings' : 'fits';
}
