/* dod.h: every dod module in one include. */
#ifndef DOD_H
#define DOD_H

#include <dod/base.h>
#include <dod/arena.h>
#include <dod/csr.h>

#endif /* DOD_H */
