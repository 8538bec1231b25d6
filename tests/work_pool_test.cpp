// The one thread pool: every item runs exactly once on at most `threads` threads at a time, the
// waiter helps (a pool of one thread is its caller alone), errors reach the waiter, and a pool of
// T threads starts exactly T - 1 threads.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "host/base/system/work_pool.hpp"
#include "tests/test_util.hpp"

namespace sp {
namespace {

TEST(WorkPool, RunsEveryItemOnceOnAtMostItsThreads) {
  // Grains that divide the items, leave a short last claim, and exceed the job.
  for (size_t grain : {size_t{1}, size_t{3}, size_t{32}, size_t{20001}}) {
    for (int threads : {1, 2, 5}) {
      WorkPool pool(threads);
      EXPECT_EQ(pool.threads(), threads);
      std::vector<std::atomic<int>> runs(20000);
      std::atomic<int> running{0}, most{0};
      const WorkPool::JobRef job = pool.submit(
          runs.size(),
          [&](size_t i) {
            const int now = running.fetch_add(1) + 1;
            int seen = most.load();
            while (seen < now && !most.compare_exchange_weak(seen, now)) {
            }
            runs[i].fetch_add(1);
            running.fetch_sub(1);
          },
          grain);
      pool.wait(job);
      EXPECT_TRUE(WorkPool::done(job));
      for (size_t i = 0; i < runs.size(); ++i)
        ASSERT_EQ(runs[i].load(), 1)
            << "item " << i << ", " << threads << " threads, grain " << grain;
      EXPECT_LE(most.load(), threads);
      EXPECT_GE(most.load(), 1);
    }
  }
}

TEST(WorkPool, GrainLeavesEveryThreadManyClaims) {
  for (int threads : {1, 2, 16}) {
    WorkPool pool(threads);
    EXPECT_EQ(pool.grain_for(0), 1u);
    EXPECT_EQ(pool.grain_for(10), 1u);
    EXPECT_EQ(pool.grain_for(1'000'000), 32u);
    const size_t items = 4096;
    const size_t grain = pool.grain_for(items);
    EXPECT_GE(items / grain, 16u * static_cast<size_t>(threads)) << threads << " threads";
  }
}

TEST(WorkPool, StartsExactlyThreadsMinusOneThreads) {
  const int before = test::os_threads();
  ASSERT_GT(before, 0);
  {
    WorkPool pool(4);
    EXPECT_EQ(test::os_threads(), before + 3);
  }
  EXPECT_EQ(test::os_threads(), before);
  WorkPool single(1);
  EXPECT_EQ(test::os_threads(), before);
}

TEST(WorkPool, ASingleThreadPoolRunsJobsOnlyInTheWaiterAndTheWaiterHelpsOtherJobs) {
  WorkPool pool(1);
  const std::thread::id me = std::this_thread::get_id();
  std::atomic<int> a{0}, b{0}, elsewhere{0};
  const auto job_a = pool.submit(100, [&](size_t) {
    a.fetch_add(1);
    elsewhere += std::this_thread::get_id() != me;
  });
  const auto job_b = pool.submit(50, [&](size_t) {
    b.fetch_add(1);
    elsewhere += std::this_thread::get_id() != me;
  });
  EXPECT_FALSE(WorkPool::done(job_a));
  EXPECT_EQ(a.load(), 0);  // nobody else runs them
  pool.wait(job_b);
  EXPECT_TRUE(WorkPool::done(job_b));
  EXPECT_EQ(b.load(), 50);
  pool.wait(job_a);
  EXPECT_EQ(a.load(), 100);
  EXPECT_EQ(elsewhere.load(), 0);
  EXPECT_GE(WorkPool::busy_ms(job_a), 0.0);
}

TEST(WorkPool, AnItemsExceptionReachesTheWaiterAndThePoolStaysUsable) {
  for (int threads : {1, 3})
    for (size_t grain : {size_t{1}, size_t{8}}) {
      WorkPool pool(threads);
      std::atomic<int> ran{0};
      const auto job = pool.submit(
          1000,
          [&](size_t i) {
            ran.fetch_add(1);
            if (i == 10) throw std::runtime_error("item 10 failed");
          },
          grain);
      try {
        pool.wait(job);
        ADD_FAILURE() << "no exception, " << threads << " threads";
      } catch (const std::runtime_error& e) {
        EXPECT_STREQ(e.what(), "item 10 failed");
      }
      EXPECT_TRUE(WorkPool::done(job));
      // The waiter alone runs items in order, so the items after the failure are skipped. (With
      // workers, items claimed before the failure was seen may still run.)
      if (threads == 1) {
        EXPECT_EQ(ran.load(), 11);
      }
      std::atomic<int> again{0};
      pool.run(64, [&](size_t) { again.fetch_add(1); });
      EXPECT_EQ(again.load(), 64);
    }
}

// work_ms sums the threads' time in the job's items: at least the items' own time, at most every
// thread busy from the first item's start to the last item's end.
TEST(WorkPool, WorkTimeIsTheThreadsTimeInTheItems) {
  for (int threads : {1, 3}) {
    WorkPool pool(threads);
    const auto job = pool.submit(
        12, [](size_t) { std::this_thread::sleep_for(std::chrono::milliseconds(3)); }, 2);
    pool.wait(job);
    EXPECT_GE(WorkPool::work_ms(job), 12 * 3.0) << threads << " threads";
    // 0.5 ms of slack: two threads' claims read their clocks after claiming, so they may cross.
    EXPECT_LE(WorkPool::work_ms(job), threads * WorkPool::busy_ms(job) + 0.5)
        << threads << " threads";
  }
  WorkPool pool(2);
  EXPECT_EQ(WorkPool::work_ms(pool.submit(0, [](size_t) {})), 0.0);  // an empty job
}

TEST(WorkPool, EmptyJobsAreDoneAtOnce) {
  WorkPool pool(2);
  const auto job = pool.submit(0, [](size_t) { FAIL() << "no item to run"; });
  EXPECT_TRUE(WorkPool::done(job));
  pool.wait(job);
  EXPECT_EQ(WorkPool::busy_ms(job), 0.0);
}

}  // namespace
}  // namespace sp
