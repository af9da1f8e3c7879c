/* dod.h: every dod module in one include (tests/test_headers checks that none is missing). */
#ifndef DOD_H
#define DOD_H

#include <dod/base.h>
#include <dod/arena.h>
#include <dod/exec.h>
#include <dod/csr.h>
#include <dod/csr_build.h>
#include <dod/csr_io.h>
#include <dod/csr_view.h>
#include <dod/csr_arrow.h>
#include <dod/file_map.h>
#include <dod/table.h>
#include <dod/table_typed.h>
#include <dod/aosoa.h>
#include <dod/frame.h>
#include <dod/graph.h>
#include <dod/reduce.h>
#include <dod/world_core.h>
#include <dod/world_cmds.h>
#include <dod/world_systems.h>
#include <dod/world_rows.h>
#include <dod/world_index.h>
#include <dod/world_io.h>
#include <dod/world_typed.h>
#include <dod/world.h>

#endif /* DOD_H */
