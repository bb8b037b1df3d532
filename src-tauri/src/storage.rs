//! The core's documents as files in the app's data folder, each replaced atomically (the
//! save thread that writes them is `saver.rs`).
//!
//! A write goes to a temporary file in the same folder (a fresh unpredictable name, created
//! with `create_new`), is flushed to disk, then renamed over the old file, so a crash or a full
//! disk leaves either the old or the new document, never a mix. A file the core finds damaged
//! is kept as `<name>.corrupt` (then `.corrupt.1`, …: never over an earlier one) for
//! inspection.

use std::ffi::OsString;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use wuzi_core::random::random_u64;
use wuzi_core::store::aside_name;

/// Overrides the data folder (tests, portable installs).
pub const DATA_DIR_ENV: &str = "WUZI_DATA_DIR";

const TEMP_SUFFIX: &str = ".tmp";

/// A temporary file older than this is a leftover of an interrupted write; a younger one may
/// be another instance's write in flight (a write takes milliseconds) and is left alone.
const STALE_TEMP: Duration = Duration::from_secs(600);

/// Most `<name>.corrupt*` files kept per save file; past that the newest slot is reused.
const CORRUPT_KEPT: usize = 100;

/// The folder holding the save files.
#[derive(Clone, Debug)]
pub struct Storage {
    dir: PathBuf,
}

impl Storage {
    /// Storage in `dir`, created if needed; temporary files left by an interrupted write (more
    /// than ten minutes old, so never another instance's write in flight) are removed.
    ///
    /// # Errors
    /// If the folder cannot be created or listed.
    pub fn open(dir: impl Into<PathBuf>) -> io::Result<Storage> {
        let dir = dir.into();
        fs::create_dir_all(&dir)?;
        for entry in fs::read_dir(&dir)? {
            let path = entry?.path();
            let is_temp = path
                .file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with('.') && n.ends_with(TEMP_SUFFIX));
            let stale = || {
                fs::metadata(&path)
                    .and_then(|m| m.modified())
                    .ok()
                    .and_then(|t| SystemTime::now().duration_since(t).ok())
                    .is_some_and(|age| age > STALE_TEMP)
            };
            if is_temp && stale() {
                // Best effort: a leftover that cannot be removed does no harm.
                let _ = fs::remove_file(&path);
            }
        }
        Ok(Storage { dir })
    }

    /// The data folder: `override_dir` (the value of `$WUZI_DATA_DIR`) if given and not
    /// empty, else `default`.
    #[must_use]
    pub fn choose_dir(override_dir: Option<OsString>, default: PathBuf) -> PathBuf {
        match override_dir {
            Some(dir) if !dir.is_empty() => PathBuf::from(dir),
            _ => default,
        }
    }

    /// The folder.
    #[must_use]
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The file `name`, or `None` if there is none.
    ///
    /// # Errors
    /// If it is there but cannot be read.
    pub fn read(&self, name: &str) -> io::Result<Option<Vec<u8>>> {
        match fs::read(self.dir.join(name)) {
            Ok(bytes) => Ok(Some(bytes)),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// Moves the damaged file `name` aside as `<name>.corrupt`, never over an earlier one
    /// (`.corrupt.1`, `.2`, …, at most `CORRUPT_KEPT`, then the newest slot is reused).
    pub fn set_aside(&self, name: &str) {
        let path = self.dir.join(name);
        let slot = |i: usize| self.dir.join(aside_name(name, i));
        let aside = (0..CORRUPT_KEPT)
            .map(slot)
            .find(|p| !p.exists())
            .unwrap_or_else(|| slot(CORRUPT_KEPT - 1));
        // Best effort: if even the rename fails, the next save overwrites the damaged file.
        match fs::rename(&path, &aside) {
            Ok(()) => log::warn!(
                "{} was damaged; moved aside as {}",
                path.display(),
                aside.display()
            ),
            Err(e) => log::warn!(
                "{} was damaged and could not be moved aside ({e})",
                path.display()
            ),
        }
    }
}

/// Replaces the file at `path` with `bytes` so that readers (and a crash at any moment) see
/// either the old content or the new, never a partial file.
///
/// # Errors
/// Any I/O error; the temporary file is removed and the old file left untouched.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let dir = path
        .parent()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "path has no folder"))?;
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "path has no file name"))?;
    // A fresh name that no one can guess or already hold: create_new refuses an existing
    // file (another instance's write, or a planted link) and the next name is tried.
    let mut attempt = 0;
    let (temp, mut file) = loop {
        let temp = dir.join(format!(
            ".{}.{}-{:016x}{TEMP_SUFFIX}",
            name.to_string_lossy(),
            std::process::id(),
            random_u64()
        ));
        match OpenOptions::new().write(true).create_new(true).open(&temp) {
            Ok(file) => break (temp, file),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists && attempt < 8 => attempt += 1,
            Err(e) => return Err(e),
        }
    };
    let result = (|| {
        file.write_all(bytes)?;
        file.sync_all()?;
        fs::rename(&temp, path)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&temp);
        return result;
    }
    sync_dir(dir);
    Ok(())
}

/// Makes the rename itself durable. Only Unix can open a folder for this; elsewhere the rename
/// is as durable as the platform makes it.
fn sync_dir(dir: &Path) {
    #[cfg(unix)]
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
    #[cfg(not(unix))]
    let _ = dir;
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use serde::{de::DeserializeOwned, Deserialize, Serialize};
    use wuzi_core::store::{load as core_load, Loaded, SaveTicket, Store};

    /// The folder as the core reads it: `read` and `set_aside`, writes at once.
    #[derive(Debug)]
    struct Files<'a>(&'a Storage);

    impl Store for Files<'_> {
        fn read(&self, name: &str) -> io::Result<Option<Vec<u8>>> {
            self.0.read(name)
        }
        fn set_aside(&self, name: &str) {
            self.0.set_aside(name);
        }
        fn write(&self, batch: Vec<(&'static str, Vec<u8>)>) {
            for (name, bytes) in batch {
                write_atomic(&self.0.dir().join(name), &bytes).unwrap();
            }
        }
        fn flush(&self) -> SaveTicket {
            SaveTicket::done()
        }
    }

    fn load<T: DeserializeOwned, U>(
        storage: &Storage,
        name: &str,
        accept: impl FnOnce(T) -> Option<U>,
    ) -> Loaded<U> {
        core_load(&Files(storage), name, accept)
    }

    fn save<T: Serialize>(storage: &Storage, name: &str, value: &T) -> io::Result<()> {
        write_atomic(
            &storage.dir().join(name),
            &serde_json::to_vec_pretty(value).unwrap(),
        )
    }

    /// A fresh, empty folder under the system temp dir, removed on drop.
    pub(crate) struct TempDir(pub PathBuf);

    impl TempDir {
        pub(crate) fn new(tag: &str) -> TempDir {
            use std::sync::atomic::{AtomicU32, Ordering};
            static NEXT: AtomicU32 = AtomicU32::new(0);
            let n = NEXT.fetch_add(1, Ordering::Relaxed);
            let dir = std::env::temp_dir()
                .join(format!("wuzi-app-test-{}-{tag}-{n}", std::process::id()));
            let _ = fs::remove_dir_all(&dir);
            fs::create_dir_all(&dir).unwrap();
            TempDir(dir)
        }
    }

    impl Drop for TempDir {
        fn drop(&mut self) {
            let _ = fs::remove_dir_all(&self.0);
        }
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Doc {
        n: u32,
        s: String,
    }

    #[test]
    fn round_trip() {
        let tmp = TempDir::new("round-trip");
        let storage = Storage::open(&tmp.0).unwrap();
        assert_eq!(load::<Doc, _>(&storage, "a.json", Some), Loaded::Missing);
        let doc = Doc {
            n: 7,
            s: "五子".into(),
        };
        save(&storage, "a.json", &doc).unwrap();
        assert_eq!(load(&storage, "a.json", Some), Loaded::Found(doc));
        save(&storage, "a.json", &Doc { n: 8, s: "".into() }).unwrap();
        assert_eq!(
            load::<Doc, _>(&storage, "a.json", Some),
            Loaded::Found(Doc { n: 8, s: "".into() })
        );
        assert_eq!(names(&tmp.0), ["a.json"]);
    }

    #[test]
    fn damaged_file_is_kept_aside_and_reported() {
        let tmp = TempDir::new("damaged");
        let storage = Storage::open(&tmp.0).unwrap();
        fs::write(tmp.0.join("a.json"), b"{\"n\": 7, \"s\": \"trunc").unwrap();
        assert_eq!(load::<Doc, _>(&storage, "a.json", Some), Loaded::Damaged);
        assert_eq!(names(&tmp.0), ["a.json.corrupt"]);
        assert_eq!(
            fs::read(tmp.0.join("a.json.corrupt")).unwrap(),
            b"{\"n\": 7, \"s\": \"trunc"
        );
        // After the move a later start sees a first start, not the damage again.
        assert_eq!(load::<Doc, _>(&storage, "a.json", Some), Loaded::Missing);
    }

    #[test]
    fn rejected_content_counts_as_damage() {
        let tmp = TempDir::new("rejected");
        let storage = Storage::open(&tmp.0).unwrap();
        save(
            &storage,
            "a.json",
            &Doc {
                n: 99,
                s: "x".into(),
            },
        )
        .unwrap();
        let loaded = load(&storage, "a.json", |d: Doc| (d.n < 10).then_some(d));
        assert_eq!(loaded, Loaded::Damaged);
        assert_eq!(names(&tmp.0), ["a.json.corrupt"]);
    }

    #[test]
    fn unreadable_file_counts_as_damage() {
        let tmp = TempDir::new("unreadable");
        let storage = Storage::open(&tmp.0).unwrap();
        // A folder where a file should be cannot be read as one, whoever runs the test.
        fs::create_dir(tmp.0.join("a.json")).unwrap();
        assert_eq!(load::<Doc, _>(&storage, "a.json", Some), Loaded::Damaged);
    }

    #[test]
    fn failed_write_leaves_the_old_file_and_no_temporary() {
        let tmp = TempDir::new("failed-write");
        let storage = Storage::open(&tmp.0).unwrap();
        save(
            &storage,
            "a.json",
            &Doc {
                n: 1,
                s: "old".into(),
            },
        )
        .unwrap();
        // The rename cannot replace a non-empty folder, so this write fails at its last step,
        // after the temporary file was fully written.
        fs::create_dir_all(tmp.0.join("b.json").join("inside")).unwrap();
        assert!(save(
            &storage,
            "b.json",
            &Doc {
                n: 2,
                s: "new".into()
            }
        )
        .is_err());
        assert_eq!(names(&tmp.0), ["a.json", "b.json"]);
        assert_eq!(
            load::<Doc, _>(&storage, "a.json", Some),
            Loaded::Found(Doc {
                n: 1,
                s: "old".into()
            })
        );
    }

    #[test]
    fn stale_temporaries_are_swept_on_open_and_fresh_ones_kept() {
        let tmp = TempDir::new("sweep");
        let old = tmp.0.join(".game.json.123-00ff.tmp");
        fs::write(&old, b"{\"half").unwrap();
        File::options()
            .write(true)
            .open(&old)
            .unwrap()
            .set_modified(SystemTime::now() - Duration::from_secs(3600))
            .unwrap();
        // Another instance's write in flight: just created, it must survive.
        fs::write(tmp.0.join(".stats.json.456-0abc.tmp"), b"{").unwrap();
        fs::write(tmp.0.join("game.json"), b"{}").unwrap();
        Storage::open(&tmp.0).unwrap();
        assert_eq!(names(&tmp.0), [".stats.json.456-0abc.tmp", "game.json"]);
    }

    #[test]
    fn temporary_names_are_fresh_and_never_reused() {
        let tmp = TempDir::new("temp-names");
        let storage = Storage::open(&tmp.0).unwrap();
        let a = random_u64();
        assert_ne!(a, random_u64());
        // A file planted at a predictable name is neither followed nor clobbered.
        let planted = tmp.0.join(format!(".a.json.{}.tmp", std::process::id()));
        fs::write(&planted, b"keep").unwrap();
        save(
            &storage,
            "a.json",
            &Doc {
                n: 1,
                s: "x".into(),
            },
        )
        .unwrap();
        assert_eq!(fs::read(&planted).unwrap(), b"keep");
        assert_eq!(
            load(&storage, "a.json", Some),
            Loaded::Found(Doc {
                n: 1,
                s: "x".into()
            })
        );
    }

    #[test]
    fn a_second_damaged_file_does_not_overwrite_the_first() {
        let tmp = TempDir::new("damaged-twice");
        let storage = Storage::open(&tmp.0).unwrap();
        for text in ["first{", "second{", "third{"] {
            fs::write(tmp.0.join("a.json"), text).unwrap();
            assert_eq!(load::<Doc, _>(&storage, "a.json", Some), Loaded::Damaged);
        }
        assert_eq!(
            names(&tmp.0),
            ["a.json.corrupt", "a.json.corrupt.1", "a.json.corrupt.2"]
        );
        assert_eq!(fs::read(tmp.0.join("a.json.corrupt")).unwrap(), b"first{");
        assert_eq!(fs::read(tmp.0.join("a.json.corrupt.2")).unwrap(), b"third{");
    }

    #[test]
    fn override_folder_wins_unless_empty() {
        let default = PathBuf::from("/default");
        assert_eq!(
            Storage::choose_dir(Some("/tmp/x".into()), default.clone()),
            PathBuf::from("/tmp/x")
        );
        assert_eq!(
            Storage::choose_dir(Some("".into()), default.clone()),
            default
        );
        assert_eq!(Storage::choose_dir(None, default.clone()), default);
    }
}
