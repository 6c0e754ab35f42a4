/* version.h — the arcpath release version, reported by --version, /metrics (arcpath_build_info) and logs. */
#ifndef AP_VERSION_H
#define AP_VERSION_H

#define ARCPATH_VERSION "0.1.0"

#endif
