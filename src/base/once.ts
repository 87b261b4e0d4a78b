/** `fn` as a function that runs it the first time it is called and does nothing after (a resume, a release). */
export function once(fn: () => void): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    fn();
  };
}
