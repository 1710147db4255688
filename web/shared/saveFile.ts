/** Saves `body` as a download named `filename`, through a temporary object URL. */
export function saveFile(body: Blob, filename: string): void {
  const url = URL.createObjectURL(body);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
