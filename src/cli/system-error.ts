// A file-system call that failed (mkdir of the config folder, a write to a full disk behind a shell
// redirect) is the user's machine, not a bug: one line naming what mtg tried, the path when there
// is one, and the cause in words, instead of "unexpected error: ENOSPC: …".

const CAUSES: Record<string, string> = {
  ENOSPC: 'no space left on the device',
  EDQUOT: 'the disk quota is used up',
  EROFS: 'the file system is read-only',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ENOENT: 'a folder on the path does not exist (or is a broken link)',
  ENOTDIR: 'a part of the path is not a folder',
  EISDIR: 'it is a folder',
  EEXIST: 'it already exists',
  ELOOP: 'too many symbolic links on the path',
  ENAMETOOLONG: 'the name is too long',
  EIO: 'an input/output error of the device',
  EMFILE: 'too many open files',
  ENFILE: 'too many open files on the system',
  EFBIG: 'the file is too large',
  EBUSY: 'it is busy',
};

const ACTIONS: Record<string, string> = {
  mkdir: 'create the folder',
  mkdtemp: 'create a folder in',
  open: 'open',
  read: 'read',
  write: 'write',
  rename: 'rename',
  unlink: 'remove',
  rmdir: 'remove the folder',
  chmod: 'change the mode of',
  fchmod: 'change the mode of',
  fsync: 'save',
  fdatasync: 'save',
  close: 'close',
  stat: 'read',
  lstat: 'read',
  fstat: 'read',
  scandir: 'list the folder',
  opendir: 'list the folder',
  copyfile: 'copy',
  symlink: 'link',
  link: 'link',
  ftruncate: 'truncate',
  access: 'reach',
  realpath: 'resolve',
  readlink: 'read the link',
  utime: 'touch',
  futime: 'touch',
};

/** The one line for a failed file-system call, or undefined when `err` is not one. */
export function systemErrorLine(err: unknown): string | undefined {
  if (!(err instanceof Error)) return undefined;
  const { code, syscall, path } = err as NodeJS.ErrnoException;
  if (typeof code !== 'string' || typeof syscall !== 'string' || !(syscall in ACTIONS)) return undefined;
  // node's own wording ("ENOSPC: no space left on device, write") when the code is not listed.
  const cause = CAUSES[code] ?? err.message.replace(/^E[A-Z0-9]+: /, '').replace(/, \w+.*$/, '');
  // A write with no path is a stream: stdout behind a redirect or a pipe.
  const what = path
    ? `${ACTIONS[syscall]} ${path}`
    : syscall === 'write'
      ? 'write the output'
      : ACTIONS[syscall];
  return `cannot ${what}: ${cause} (${code})`;
}
