#!/usr/bin/env python3
"""Drops the page cache's pages of every file under FOLDER (posix_fadvise DONTNEED), so that the
next read of them goes to the storage: a cold start without root (tests/cli/insights_tests.cmake).

evict_page_cache.py FOLDER  prints "evicted N files"; exit 1 when FOLDER holds no file.
"""
import os
import sys


def main():
    count = 0
    for root, _, files in os.walk(sys.argv[1]):
        for name in files:
            fd = os.open(os.path.join(root, name), os.O_RDONLY)
            try:
                os.fsync(fd)  # dirty pages are not dropped
                os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
            finally:
                os.close(fd)
            count += 1
    if count == 0:
        print(f"evict_page_cache: no file under {sys.argv[1]}")
        sys.exit(1)
    print(f"evicted {count} files")


if __name__ == "__main__":
    main()
