/// The Python program `--compare-duckdb` runs: an approximate SQL version of stocktake's reconciliation in DuckDB.
///
/// It reads the same files (the central sheet, every sighting and register), normalizes tags, CNS numbers, serial
/// numbers and MAC addresses roughly, joins on the tag, counts `MISSING`, `UNRECORDED`, `DUPLICATE_TAG`,
/// `TAG_CNS_MISMATCH`, `SHARED_SERIAL` and `SHARED_MAC`, and writes a cleaned table: what a data engineer would
/// write in an afternoon, not the full rules (no typos, conflicts, staleness, messages or reports). It prints
/// its counts as one JSON line.
enum DuckDBScript {
    /// The program's text, written to a temporary file when run.
    static let text = #"""
        # An approximate SQL version of stocktake's reconciliation, run by `stocktake-bench run --compare-duckdb`.
        # Usage: python3 THIS DATA_DIR OUT_DIR TAG_DIGITS CNS_DIGITS THREADS (0: DuckDB's default).
        # Prints the counts as one JSON line.
        import glob, json, os, re, sys
        import duckdb

        data, out = sys.argv[1], sys.argv[2]
        tag_digits, cns_digits, threads = int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
        ALIASES = {
            "tag": {"vttag", "ptag", "tagnumber", "tagno", "vtid", "assettag", "inventorynumber", "tag"},
            "cns": {"cns", "cnsno", "cnumber", "cnsnumber"},
            "serial": {"serialnumber", "serial", "sn", "serialno"},
            "mac": {"macaddress", "wiredmac", "mac", "ethernetmac", "macaddr"},
            "building": {"building", "bldg", "buildingname", "bldgcode"},
            "room": {"room", "rm"},
            "custodian": {"custodian", "assignedto", "custodianpid"},
        }
        PLACEHOLDERS = "('', 'NA', 'N/A', '-', '--', 'NONE', 'NULL', 'UNKNOWN', 'TBD', '?')"


        def quoted(name):
            return '"' + name.replace('"', '""') + '"'


        def literal(text):
            return "'" + text.replace("'", "''") + "'"


        def expression(field, column):
            """The SQL that normalizes `column` as `field`, roughly as stocktake does."""
            if column is None:
                return "NULL::VARCHAR"
            value = f"trim({quoted(column)})"
            if field in ("tag", "cns"):
                # Spreadsheets turn identifiers into numbers: "631126.0" keeps its digits, "2.22E+06" has lost them.
                value = f"CASE WHEN NOT contains(upper({value}), 'E+') THEN {value} END"
                digits = f"regexp_replace(regexp_replace({value}, '\\.0+$', ''), '[^0-9]', '', 'g')"
                width = tag_digits if field == "tag" else cns_digits
                prefix = "" if field == "tag" else "'C' || "
                return f"CASE WHEN length({digits}) BETWEEN 1 AND {width} THEN {prefix}lpad({digits}, {width}, '0') END"
            if field == "serial":
                text = f"upper(regexp_replace({value}, '\\s', '', 'g'))"
                return f"CASE WHEN {text} NOT IN {PLACEHOLDERS} THEN {text} END"
            if field == "mac":
                hexadecimal = f"lower(regexp_replace({value}, '[^0-9A-Fa-f]', '', 'g'))"
                valid = f"length({hexadecimal}) = 12 AND {hexadecimal} NOT IN ('000000000000', 'ffffffffffff')"
                return f"CASE WHEN {valid} THEN {hexadecimal} END"
            return f"CASE WHEN upper({value}) NOT IN {PLACEHOLDERS} THEN {value} END"


        con = duckdb.connect()
        if threads > 0:
            con.execute(f"SET threads = {threads}")
        files = [(os.path.join(data, "central.csv"), "central")]
        files += [(path, "sighting") for path in sorted(glob.glob(os.path.join(data, "sightings", "*")))]
        files += [(path, "register") for path in sorted(glob.glob(os.path.join(data, "registers", "*")))]
        selects = []
        for path, role in files:
            options = "all_varchar = true, header = true, ignore_errors = true, strict_mode = false"
            source = f"read_csv({literal(path)}, {options})"
            columns = [row[0] for row in con.execute(f"DESCRIBE SELECT * FROM {source}").fetchall()]
            chosen = {}
            for column in columns:
                key = re.sub(r"[^a-z]", "", column.lower().replace("#", "number"))
                for field, names in ALIASES.items():
                    if field not in chosen and (key in names or key.replace("number", "") in names):
                        chosen[field] = column
            fields = ", ".join(f"{expression(field, chosen.get(field))} AS {field}" for field in ALIASES)
            name = literal(os.path.basename(path))
            selects.append(f"SELECT {name} AS file, {literal(role)} AS role, {fields} FROM {source}")
        con.execute("CREATE TABLE rows AS " + " UNION ALL ".join(selects))
        con.execute("CREATE TABLE central AS SELECT * FROM rows WHERE role = 'central'")
        con.execute("CREATE TABLE sighted AS SELECT * FROM rows WHERE role = 'sighting'")
        counts = {}


        def count(code, sql):
            counts[code] = con.execute(sql).fetchone()[0]


        count("MISSING", """
            SELECT count(DISTINCT c.tag) FROM central c WHERE c.tag IS NOT NULL
            AND NOT EXISTS (SELECT 1 FROM sighted s WHERE s.tag = c.tag)
            AND NOT EXISTS (SELECT 1 FROM sighted s WHERE s.serial = c.serial)
            AND NOT EXISTS (SELECT 1 FROM sighted s WHERE s.mac = c.mac)""")
        count("UNRECORDED", """
            SELECT count(DISTINCT s.tag) FROM sighted s WHERE s.tag IS NOT NULL
            AND NOT EXISTS (SELECT 1 FROM central c WHERE c.tag = s.tag)""")
        count("DUPLICATE_TAG", """
            SELECT count(*) FROM (SELECT tag FROM rows WHERE tag IS NOT NULL GROUP BY tag
            HAVING count(DISTINCT serial) > 1 OR count(DISTINCT mac) > 1)""")
        count("TAG_CNS_MISMATCH", """
            SELECT count(*) FROM (SELECT tag FROM rows WHERE tag IS NOT NULL GROUP BY tag
            HAVING count(DISTINCT cns) > 1)""")
        count("SHARED_SERIAL", """
            SELECT count(*) FROM (SELECT serial FROM rows WHERE serial IS NOT NULL AND tag IS NOT NULL
            GROUP BY serial HAVING count(DISTINCT tag) > 1)""")
        count("SHARED_MAC", """
            SELECT count(*) FROM (SELECT mac FROM rows WHERE mac IS NOT NULL AND tag IS NOT NULL
            GROUP BY mac HAVING count(DISTINCT tag) > 1)""")
        pick = "coalesce(any_value({0}) FILTER (WHERE role = 'central'), any_value({0})) AS {1}"
        con.execute(f"""
            COPY (
              SELECT tag, {pick.format("cns", "cns_number")}, {pick.format("serial", "serial_number")},
                {pick.format("mac", "mac_address")}, {pick.format("building", "building")},
                {pick.format("room", "room")}, {pick.format("custodian", "custodian")},
                CASE WHEN count(*) FILTER (WHERE role = 'central') = 0 THEN 'unrecorded'
                     WHEN count(*) FILTER (WHERE role = 'sighting') = 0 THEN 'missing' ELSE 'ok' END AS status
              FROM rows WHERE tag IS NOT NULL GROUP BY tag ORDER BY tag
            ) TO {literal(os.path.join(out, 'cleaned.csv'))} (HEADER, DELIMITER ',')""")
        counts["rows"] = con.execute("SELECT count(*) FROM rows").fetchone()[0]
        cleaned = con.execute("SELECT count(DISTINCT tag) FROM rows WHERE tag IS NOT NULL").fetchone()[0]
        counts["cleaned rows"] = cleaned
        print(json.dumps(counts))
        """#
}
