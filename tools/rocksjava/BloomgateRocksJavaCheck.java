// Copyright 2026 The bloomgate Authors.
//
// bloomgate's filters from the JVM, with RocksJava built with bloomgate as a
// plugin (tools/build-rocksdb --java) and no bloomgate Java class: the
// set-up is text, as a JVM service writes it.
//
//   java -cp <rocksdbjni jar>:<classes> BloomgateRocksJavaCheck <dir> [keys]
//
// Two routes, each on a fresh database in <dir>:
//   options-file   OptionsUtil.loadOptionsFromFile on an OPTIONS file that
//                  names bloomgate:10:monkey:mixed and the live-tree
//                  listener (a service ships such a file).
//   options-string ColumnFamilyOptions.getColumnFamilyOptionsFromProps with
//                  block_based_table_factory={filter_policy=bloomgate:10}
//                  (what a Flink RocksDBOptionsFactory can return).
// Each writes the keys in a scrambled order (64-byte values), lets RocksDB
// flush and compact (leveled, dynamic level bytes), reads every present key
// back and as many absent keys, and checks through RocksDB's statistics and
// table properties that bloomgate built every filter, answered the absent
// keys, and kept the filters' memory within 2% of 10 bits per key. Then
// malformed names: each must fail, naming what is wrong. Exits 1 on the
// first failed check, saying which.

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.ConfigOptions;
import org.rocksdb.DBOptions;
import org.rocksdb.FlushOptions;
import org.rocksdb.OptionsUtil;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.Statistics;
import org.rocksdb.TableProperties;
import org.rocksdb.TickerType;
import org.rocksdb.WriteOptions;

public final class BloomgateRocksJavaCheck {
  private static final double BUDGET_BITS_PER_KEY = 10;
  private static final double BUDGET_TOLERANCE = 0.02;
  private static final int VALUE_BYTES = 64;

  // The tree: RocksDB's leveled defaults (dynamic level bytes), with
  // buffers small enough that a million keys make several levels.
  private static final String TREE_OPTIONS =
      "write_buffer_size=4194304;target_file_size_base=4194304;"
          + "max_bytes_for_level_base=16777216;"
          + "level_compaction_dynamic_level_bytes=true;"
          + "compression=kNoCompression";

  private static final class CheckFailed extends Exception {
    private static final long serialVersionUID = 1;

    CheckFailed(String message) {
      super(message);
    }
  }

  private static void check(boolean condition, String what) throws CheckFailed {
    if (!condition) throw new CheckFailed(what);
  }

  public static void main(String[] args) throws Exception {
    if (args.length < 1 || args.length > 2) {
      System.err.println("usage: BloomgateRocksJavaCheck <work dir> [keys]");
      System.exit(2);
    }
    final Path work = Paths.get(args[0]);
    final int keys = args.length == 2 ? Integer.parseInt(args[1]) : 1_000_000;
    RocksDB.loadLibrary();
    try {
      optionsFileRoute(work.resolve("options-file"), keys);
      optionsStringRoute(work.resolve("options-string"), keys);
      malformedNames(work.resolve("malformed"));
    } catch (CheckFailed e) {
      System.err.println("FAILED: " + e.getMessage());
      System.exit(1);
    }
    System.out.println("bloomgate from RocksJava " + RocksDB.rocksdbVersion()
        + ": all checks passed");
  }

  // An OPTIONS file as a service would ship it: the policy and the
  // listener by name, nothing in code.
  private static String optionsFile(String policy, String listener) {
    return String.join("\n",
        "[Version]",
        "  options_file_version=1.1",
        "[DBOptions]",
        "  create_if_missing=true",
        "  listeners={" + listener + "}",
        "[CFOptions \"default\"]",
        "  " + TREE_OPTIONS.replace(";", "\n  "),
        "[TableOptions/BlockBasedTable \"default\"]",
        "  filter_policy=" + policy,
        "");
  }

  private static Path writeOptionsFile(Path dir, String text) throws IOException {
    Files.createDirectories(dir);
    final Path file = dir.resolve("OPTIONS-service");
    Files.write(file, text.getBytes(StandardCharsets.UTF_8));
    return file;
  }

  private static void optionsFileRoute(Path dir, int keys) throws Exception {
    final Path file =
        writeOptionsFile(dir, optionsFile("bloomgate:10:monkey:mixed", "bloomgate_live_tree"));
    try (ConfigOptions config = new ConfigOptions().setIgnoreUnknownOptions(false);
         DBOptions db = new DBOptions()) {
      final List<ColumnFamilyDescriptor> families = new ArrayList<>();
      OptionsUtil.loadOptionsFromFile(config, file.toString(), db, families);
      check(families.size() == 1, "the OPTIONS file has one column family");
      fillAndRead("options-file (bloomgate:10:monkey:mixed, listener by name)",
          dir.resolve("db"), db, families.get(0).getOptions(), keys);
    }
  }

  private static Properties props(String text) {
    final Properties p = new Properties();
    for (String pair : text.split(";")) {
      final int eq = pair.indexOf('=');
      p.setProperty(pair.substring(0, eq), pair.substring(eq + 1));
    }
    return p;
  }

  private static void optionsStringRoute(Path dir, int keys) throws Exception {
    final Properties p = props(TREE_OPTIONS);
    p.setProperty("block_based_table_factory", "{filter_policy=bloomgate:10}");
    try (ConfigOptions config = new ConfigOptions().setIgnoreUnknownOptions(false);
         DBOptions db = new DBOptions().setCreateIfMissing(true)) {
      final ColumnFamilyOptions family = ColumnFamilyOptions.getColumnFamilyOptionsFromProps(config, p);
      check(family != null, "getColumnFamilyOptionsFromProps accepts bloomgate:10");
      fillAndRead("options-string (bloomgate:10)", dir.resolve("db"), db, family, keys);
    }
  }

  private static byte[] key(long i) {
    return String.format("key%016d", i).getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] absentKey(long i) {
    return String.format("key%016d+", i).getBytes(StandardCharsets.UTF_8);
  }

  private static void fillAndRead(String route, Path path, DBOptions db,
      ColumnFamilyOptions family, int keys) throws Exception {
    final long start = System.nanoTime();
    try (Statistics stats = new Statistics()) {
      db.setStatistics(stats);
      db.setCreateIfMissing(true);
      final List<ColumnFamilyDescriptor> descriptors =
          Arrays.asList(new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, family));
      final List<ColumnFamilyHandle> handles = new ArrayList<>();
      Files.createDirectories(path);
      try (RocksDB rocks = RocksDB.open(db, path.toString(), descriptors, handles);
           WriteOptions write = new WriteOptions().setDisableWAL(true);
           FlushOptions flush = new FlushOptions().setWaitForFlush(true)) {
        final ColumnFamilyHandle cf = handles.get(0);
        final byte[] value = new byte[VALUE_BYTES];
        // A permutation of 0..keys-1, since 7919 is prime and does not
        // divide keys.
        check(keys % 7919 != 0, "keys is not a multiple of 7919");
        for (long i = 0; i < keys; ++i) {
          final long k = (i * 7919) % keys;
          Arrays.fill(value, (byte) k);
          rocks.put(cf, write, key(k), value);
        }
        rocks.flush(flush, cf);
        waitForBackgroundWork(rocks);

        for (long i = 0; i < keys; ++i) {
          check(rocks.get(cf, key(i)) != null, route + ": present key " + i + " found");
        }
        final long positivesBefore = stats.getTickerCount(TickerType.BLOOM_FILTER_FULL_POSITIVE);
        final long usefulBefore = stats.getTickerCount(TickerType.BLOOM_FILTER_USEFUL);
        for (long i = 0; i < keys; ++i) {
          check(rocks.get(cf, absentKey(i)) == null, route + ": absent key " + i + " not found");
        }
        final long positives =
            stats.getTickerCount(TickerType.BLOOM_FILTER_FULL_POSITIVE) - positivesBefore;
        final long useful = stats.getTickerCount(TickerType.BLOOM_FILTER_USEFUL) - usefulBefore;

        long filterBytes = 0, entries = 0, files = 0;
        for (Map.Entry<String, TableProperties> e :
            rocks.getPropertiesOfAllTables(cf).entrySet()) {
          final TableProperties t = e.getValue();
          check(t.getFilterPolicyName().equals("bloomgate"),
              route + ": " + e.getKey() + " has a bloomgate filter (policy \""
                  + t.getFilterPolicyName() + "\")");
          filterBytes += t.getFilterSize();
          entries += t.getNumEntries();
          ++files;
        }
        check(entries == keys, route + ": the tables hold " + entries + " of " + keys + " keys");
        final double bitsPerKey = 8.0 * filterBytes / entries;
        // The filters answered: every absent lookup either ended at a
        // filter's "no" or was one of its "may match" answers.
        check(useful > 0, route + ": BLOOM_FILTER_USEFUL counted filter answers");
        System.out.printf("%s: %d keys in %d files over %s; filters %d bytes = %.3f bits/key; "
                + "%d absent lookups: %d filter \"no\", %d \"may match\" (%.4f reads per absent "
                + "lookup); %.1f s%n",
            route, entries, files, levels(rocks), filterBytes, bitsPerKey, keys, useful, positives,
            (double) positives / keys, (System.nanoTime() - start) / 1e9);
        check(Math.abs(bitsPerKey - BUDGET_BITS_PER_KEY)
                <= BUDGET_TOLERANCE * BUDGET_BITS_PER_KEY,
            route + ": filters take " + bitsPerKey + " bits/key, not within 2% of "
                + BUDGET_BITS_PER_KEY);
        for (ColumnFamilyHandle h : handles) h.close();
      }
    }
  }

  private static String levels(RocksDB rocks) throws RocksDBException {
    final StringBuilder s = new StringBuilder();
    for (int level = 0; level < 7; ++level) {
      final String n = rocks.getProperty("rocksdb.num-files-at-level" + level);
      if (!n.equals("0")) s.append(s.length() == 0 ? "" : " ").append("L" + level + ":" + n);
    }
    return s.toString();
  }

  // RocksJava has no WaitForCompact: polls until no flush or compaction is
  // pending or running (at most ten minutes).
  private static void waitForBackgroundWork(RocksDB rocks) throws Exception {
    for (int i = 0; i < 60_000; ++i) {
      if (rocks.getLongProperty("rocksdb.compaction-pending") == 0
          && rocks.getLongProperty("rocksdb.num-running-compactions") == 0
          && rocks.getLongProperty("rocksdb.num-running-flushes") == 0) {
        return;
      }
      Thread.sleep(10);
    }
    throw new CheckFailed("background work did not finish");
  }

  // Each malformed name fails, and the failure names it: an OPTIONS file
  // with a misspelt listener (loading fails) or a malformed policy (opening
  // fails), and a malformed policy in an options string (RocksJava returns
  // null for options RocksDB refuses to parse, dropping the message; this
  // one parses, and opening fails).
  private static void malformedNames(Path dir) throws Exception {
    expectFailure("a misspelt listener",
        writeOptionsFile(dir.resolve("listener"),
            optionsFile("bloomgate:10:monkey", "bloomgate_live_tre")),
        dir.resolve("listener").resolve("db"), "unknown listener \"bloomgate_live_tre\"");
    expectFailure("a malformed policy",
        writeOptionsFile(dir.resolve("policy"),
            optionsFile("bloomgate:abc", "bloomgate_live_tree")),
        dir.resolve("policy").resolve("db"), "bloomgate:abc");

    // In an options string the policy is parsed when the database opens.
    final Properties p = props(TREE_OPTIONS);
    p.setProperty("block_based_table_factory", "{filter_policy=bloomgate:abc}");
    try (ConfigOptions config = new ConfigOptions().setIgnoreUnknownOptions(false);
         DBOptions db = new DBOptions().setCreateIfMissing(true)) {
      final ColumnFamilyOptions family = ColumnFamilyOptions.getColumnFamilyOptionsFromProps(config, p);
      if (family == null) {
        System.out.println("a malformed policy in an options string refused by "
            + "getColumnFamilyOptionsFromProps (RocksJava drops the message)");
      } else {
        expectOpenFails("a malformed policy in an options string", db,
            Arrays.asList(new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, family)),
            dir.resolve("string").resolve("db"), "bloomgate:abc");
      }
    }
    System.out.println("malformed names: each refused, naming it");
  }

  // Loading `file` and opening a database with it fails with a message that
  // contains `named`.
  private static void expectFailure(String what, Path file, Path path, String named)
      throws Exception {
    try (ConfigOptions config = new ConfigOptions().setIgnoreUnknownOptions(false);
         DBOptions db = new DBOptions()) {
      final List<ColumnFamilyDescriptor> families = new ArrayList<>();
      try {
        OptionsUtil.loadOptionsFromFile(config, file.toString(), db, families);
      } catch (RocksDBException e) {
        expectNamed(what, e, named);
        return;
      }
      expectOpenFails(what, db, families, path, named);
    }
  }

  // Opening a database with these options fails with a message that
  // contains `named`.
  private static void expectOpenFails(String what, DBOptions db,
      List<ColumnFamilyDescriptor> families, Path path, String named) throws Exception {
    final List<ColumnFamilyHandle> handles = new ArrayList<>();
    Files.createDirectories(path);
    final RocksDB rocks;
    try {
      rocks = RocksDB.open(db, path.toString(), families, handles);
    } catch (RocksDBException e) {
      expectNamed(what, e, named);
      return;
    }
    for (ColumnFamilyHandle h : handles) h.close();
    rocks.close();
    throw new CheckFailed(what + ": the database opened");
  }

  private static void expectNamed(String what, RocksDBException e, String named)
      throws CheckFailed {
    check(e.getMessage() != null && e.getMessage().contains(named),
        what + ": the error \"" + e.getMessage() + "\" names " + named);
    System.out.println(what + " refused: " + e.getMessage());
  }
}
