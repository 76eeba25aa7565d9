import { useState } from 'preact/hooks';
import type { Endpoints, ResponseOf } from '@garrison/sdk';
import { client, isAdmin } from '../../session.js';
import { Problem, useAction } from '../../components/problem.js';
import { fileNamePart, saveFile } from '../../components/save-file.js';
import { JobPanel, useJobRunner } from '../../components/job.js';

type Diff = ResponseOf<Endpoints['importModPreset']>;

/**
 * The game launcher's presets: one loaded here (picked or dropped) is compared with the mods on the
 * server — matched, missing (not installed), extra (enabled, not in it), its DLC — and applied on
 * request; "Download preset" hands players the enabled client mods as a preset their launcher loads.
 */
export function PresetPanel(props: { serverId: number; serverName: string; workshop: boolean; onApplied: () => void }) {
  const { serverId, serverName, onApplied } = props;
  const admin = isAdmin();
  const action = useAction();
  const [preset, setPreset] = useState<File | null>(null);
  const [diff, setDiff] = useState<Diff | null>(null);
  /** What the apply turned off: the enabled client mods the preset did not have, as compared before it. */
  const [turnedOff, setTurnedOff] = useState<string[]>([]);
  const [dragOver, setDragOver] = useState(false);
  // The Workshop tab's own job: it shows the same download.
  // Once it ends, the preset is compared again: what it downloaded is no longer missing.
  const runner = useJobRunner(serverId, 'workshop', () => {
    onApplied();
    if (preset) void action.run(async () => setDiff(await client.mods.importPreset(serverId, preset)));
  });
  const missingIds = (diff?.missing ?? []).flatMap((m) => (m.id ? [m.id] : []));
  /** Whether this panel started the download: the tab's earlier job is not this preset's. */
  const [fetching, setFetching] = useState(false);
  const fetchMissing = () =>
    action.run(async () => {
      await runner.start(async () => (await client.workshop.add(serverId, { items: missingIds })).job_id);
      setFetching(true);
    });

  const load = (file: File | undefined) =>
    file &&
    action.run(async () => {
      setDiff(await client.mods.importPreset(serverId, file));
      setPreset(file);
      setTurnedOff([]);
      setFetching(false);
    });
  const apply = () =>
    preset &&
    action.run(async () => {
      const before = diff?.extra.map((m) => m.folder) ?? [];
      // The answer compares the preset with the server as applied: the status line and the lists follow it.
      setDiff(await client.mods.importPreset(serverId, preset, { apply: true }));
      setTurnedOff(before);
      onApplied();
    });
  const download = () =>
    action.run(async () => {
      saveFile(await client.mods.exportPreset(serverId), `${fileNamePart(serverName) || 'preset'}.html`, 'text/html');
    });

  return (
    <section class="preset-panel" aria-labelledby="preset-title">
      <h3 id="preset-title">Launcher presets</h3>
      <div class="toolbar">
        {admin && (
          <label
            class={`drop${dragOver ? ' over' : ''}`}
            onDragOver={(e) => (e.preventDefault(), setDragOver(true))}
            onDragLeave={() => setDragOver(false)}
            onDrop={(e) => (e.preventDefault(), setDragOver(false), void load(e.dataTransfer?.files[0]))}
          >
            Load a Launcher preset
            <input type="file" accept=".html,.htm,text/html" onChange={(e) => void load(e.currentTarget.files?.[0])} />
          </label>
        )}
        <button type="button" class="quiet" onClick={download}>
          Download preset
        </button>
      </div>
      <Problem error={action.error} onDismiss={action.dismiss} />
      {diff && (
        <div class="preset-diff" aria-label="Preset compared with the server's mods">
          <p>
            {diff.preset.name ? `Preset “${diff.preset.name}”` : 'Mod list'}: {diff.matched.length} installed, {diff.missing.length}{' '}
            missing, {diff.extra.length} enabled here but not in it.
            {diff.applied &&
              ` Applied: its installed mods are now the enabled client ` +
                `mods${turnedOff.length ? `; no longer enabled: ${turnedOff.join(', ')}` : ''}. They load at the next start.`}
          </p>
          <DiffList title="Installed" items={diff.matched.map((m) => `${m.name} → ${m.folder}`)} />
          <DiffList
            title="Missing (not installed)"
            items={diff.missing.map((m) => (m.id ? `${m.name} (Workshop ${m.id})` : `${m.name} (local)`))}
          />
          <DiffList title="Enabled here, not in the preset" items={diff.extra.map((m) => m.folder)} />
          <DiffList title="DLC" items={diff.dlc.map((d) => d.name)} />
          {admin && props.workshop && missingIds.length > 0 && (
            <button type="button" disabled={runner.running} onClick={fetchMissing}>
              Download the {missingIds.length} missing Workshop item{missingIds.length === 1 ? '' : 's'}
            </button>
          )}
          {fetching && <JobPanel runner={runner} label="Workshop download" />}
          {admin && !diff.applied && diff.matched.length > 0 && (
            <button type="button" onClick={apply}>
              Apply
            </button>
          )}
        </div>
      )}
    </section>
  );
}

function DiffList({ title, items }: { title: string; items: string[] }) {
  if (!items.length) return null;
  return (
    <div>
      <h4>
        {title} ({items.length})
      </h4>
      <ul class="small">
        {items.map((item) => (
          <li key={item}>{item}</li>
        ))}
      </ul>
    </div>
  );
}
