/** A server's live figures as people read them; a dash while there is no process to measure. */
export const cpuText = (cpu: number | null) => (cpu === null ? '–' : `${cpu.toFixed(1)} %`);
/** Players: the count once the game has answered; while it starts or has not answered yet, that it is awaited. */
export const playersText = (status: string, count: number | null) =>
  count !== null ? count : status === 'running' || status === 'starting' ? 'waiting for the game' : '–';
export const memoryText = (ram: number | null) => (ram === null ? '–' : `${Math.round(ram)} MB`);

export function Figure({ label, value }: { label: string; value: string | number | null }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd>{value ?? '–'}</dd>
    </div>
  );
}
