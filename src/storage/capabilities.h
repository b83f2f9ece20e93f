// What a storage backend can do (Env::capabilities). PosixEnv can do everything; an object store
// (S3) cannot rename, write at an offset, hold directories, map files, bypass the page cache or
// let several writers share an object. Code that needs a capability its Env lacks takes the other
// path where one exists (writers that write at offsets write sequentially instead); wrappers
// report their target's.
#pragma once

namespace dlbench::storage {

struct Capabilities {
  bool random_writes = true;   // WritableFile::write_at and truncate; Env::open_write
  bool rename = true;          // Env::rename, and PublishOptions::reuse
  bool directories = true;     // folders exist apart from the files in them
  bool mmap = true;            // Env::open_mapped maps the file (else it reads positionally)
  bool direct_io = true;       // OpenOptions::direct
  bool shared_writers = true;  // Env::open_shared: several processes write one file
};

}  // namespace dlbench::storage
