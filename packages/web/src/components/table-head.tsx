/** A table's column headings; a column left out (`false`) is not drawn, for one a viewer has no use for. */
export function TableHead({ columns }: { columns: (string | false)[] }) {
  return (
    <thead>
      <tr>
        {columns
          .filter((c): c is string => c !== false)
          .map((c) => (
            <th key={c} scope="col">
              {c}
            </th>
          ))}
      </tr>
    </thead>
  );
}
